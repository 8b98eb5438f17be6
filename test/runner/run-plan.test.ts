/**
 * planRun: the whole run as one value (phases, hosts, fault windows, every
 * worker's sections), and that value kept: plan.json read back and the
 * replay command planned again both give the same plan, for random options.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientPlan, planPrefix } from '../../core/generator/client-plan.js';
import { DEFAULTS, replayArgs, type RunOptions } from '../../core/plan/run-options.js';
import { MAX_PLANNED_SECTIONS, planRun, sectionHorizonMs } from '../../core/plan/run-plan.js';
import { parsePlanJson, planText } from '../../core/run-files/plan-json.js';
import { UsageError } from '../../core/errors.js';
import { runOptionsArbitrary } from '../support/arbitrary-run-options.js';
import { parseRun } from '../support/parse-run.js';
import { testSeed } from '../support/seed.js';

const base: RunOptions = {
  ...DEFAULTS,
  backend: 'redis',
  resource: 'fence-claim',
  workload: 'lock-counter',
  nemesis: ['client-pause'],
  timeLimitS: 10,
  clients: 3,
  seed: 7,
};

describe('planRun', () => {
  it('plans the phases, the hosts, the nodes, the windows and the limits of a run', () => {
    const plan = planRun(base);
    expect(plan.phases).toEqual([
      { name: 'main', startMs: 0, endMs: 10_000 },
      { name: 'heal', startMs: 10_000 },
      { name: 'recover', startMs: 10_000, endMs: 15_000 },
      { name: 'final-reads', startMs: 15_000, connectDuring: 'recover' },
    ]);
    expect(plan.hosts).toEqual(['c1', 'c2', 'c3']);
    expect(plan.lockNodes).toEqual(['redis1']);
    expect(plan.resourceNode).toBe('pg1');
    // After 5 s of quiet, a client pause of max(duration, 2 x TTL) = 5 s aimed at the holder, ending with the main phase.
    expect(plan.windows).toEqual([{ at: 5000, until: 10_000, fault: 'client-pause', target: { kind: 'holder' } }]);
    expect(plan.giveUpMs).toBe(4 * 1000 + 5000 + 10_000);
    expect(plan.victimWaitMs).toBe(5000);
  });

  it("holds each worker's seeded sections up to the horizon, as the generator makes them", () => {
    const plan = planRun(base);
    const horizon = sectionHorizonMs(base.timeLimitS);
    expect(horizon).toBe(12_000);
    for (const w of plan.workers) {
      expect(w.host).toBe(plan.hosts[w.worker]);
      expect(w.sections).toEqual(
        planPrefix(clientPlan(base.seed, w.worker, { workload: 'lock-counter', rate: base.rate, hold: base.holdMs }), w.sections.length),
      );
      // Every section but the last starts (by think times alone) within the horizon; the last is the first past it.
      const starts = w.sections.map((_, i) => w.sections.slice(0, i).reduce((t, s) => t + s.thinkMs, 0));
      expect(starts.every((t) => t <= horizon)).toBe(true);
      expect(starts.at(-1)! + w.sections.at(-1)!.thinkMs).toBeGreaterThan(horizon);
    }
    // About rate x horizon sections each (2/s over 12 s).
    const total = plan.workers.reduce((n, w) => n + w.sections.length, 0);
    expect(total).toBeGreaterThan(3 * 12);
    expect(total).toBeLessThan(3 * 48);
  });

  it('a mutex run ends without a final read; fenced-write sections carry their unique values', () => {
    expect(planRun({ ...base, resource: 'none', workload: 'mutex' }).phases.map((p) => p.name)).toEqual(['main', 'heal', 'recover']);
    const fenced = planRun({ ...base, workload: 'fenced-write' });
    expect(fenced.workers[1]!.sections.slice(0, 2).map((s) => s.value)).toEqual(['p1-0', 'p1-1']);
  });

  it('refuses a plan too big to hold (254), naming the numbers', () => {
    const huge = { ...base, clients: 50, rate: 1000, timeLimitS: 86_400 };
    expect(() => planRun(huge)).toThrow(UsageError);
    expect(() => planRun(huge)).toThrow(`Expected a run of at most ${MAX_PLANNED_SECTIONS.toLocaleString('en-US')} planned critical sections, got about`);
    // The defaults at the longest time limit fit, with room for the Poisson spread (planning them takes seconds: not done here).
    expect((DEFAULTS.clients * DEFAULTS.rate * sectionHorizonMs(86_400)) / 1000).toBeLessThan(MAX_PLANNED_SECTIONS * 0.96);
  });
});

describe('a plan kept', () => {
  // Small runs: every case is planned whole (sections included), twice.
  const options = runOptionsArbitrary({ maxTimeLimitS: 60, maxClients: 6, maxRate: 5 });

  it('plan.json and the replay command give back the same plan, for random options', () => {
    const seed = testSeed('plan round trip', 'test/runner/run-plan.test.ts');
    let planned = 0;
    fc.assert(
      fc.property(options, (o) => {
        let plan;
        try {
          plan = planRun(o);
        } catch (err) {
          // Combinations no run takes (a fence without a token, clock faults on etcd...): refused, not planned.
          if (err instanceof UsageError) return;
          throw err;
        }
        planned++;
        const text = planText(plan);
        expect(parsePlanJson(text, 'plan.json')).toEqual(plan);
        expect(planText(parsePlanJson(text, 'plan.json'))).toBe(text);
        expect(planRun(parseRun(replayArgs(plan.options)))).toEqual(plan);
      }),
      { seed, numRuns: 200 },
    );
    // The property must have held for plans, not only refusals.
    expect(planned).toBeGreaterThan(50);
  });
});
