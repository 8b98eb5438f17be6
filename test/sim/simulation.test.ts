/**
 * Deterministic simulation of the real run interpreter (see simulate-run.ts):
 * random plans, each run on virtual time against a world that knows the
 * truth, and the real checkers held against it (compare-with-truth.ts). A
 * plan replays to the identical history. FC_SIM_RUNS sets the number of
 * simulated runs (default 1,000); FC_SEED replays a seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../core/plan/run-options.js';
import { testSeed } from '../support/seed.js';
import { compareWithTruth } from './compare-with-truth.js';
import { runOptionsArbitrary } from './run-options-arbitrary.js';
import { simulateRun } from './simulate-run.js';

const RUNS = Number(process.env['FC_SIM_RUNS'] ?? 1000);

const base: RunOptions = {
  backend: 'redis', resource: 'none', workload: 'lock-counter', nemesis: ['client-pause'], timeLimitS: 5, clients: 5, ttlMs: 2000, seed: 1, holdMs: 200, rate: 2,
  intervalMs: 1000, durationMs: 1000, recoverMs: 1000, callTimeoutMs: 500, nemesisTarget: 'random', redisPersistence: 'none', resultsDir: 'unused', checkHold: false,
};

const REGRESSIONS: { bug: string; options: RunOptions }[] = [
  {
    bug: 'stale-writes took a grant learnt later (its acquirer paused with the answer in its pipe) for a later grant',
    options: {
      ...base, resource: 'fence-claim', timeLimitS: 3, clients: 3, ttlMs: 201, seed: 1155095465, holdMs: 76, rate: 7, intervalMs: 207, durationMs: 2940, recoverMs: 1992, callTimeoutMs: 798,
      script: [{ at: 9, until: 342, fault: 'client-pause', target: { kind: 'acquirer' } }],
    },
  },
  {
    bug: 'the same, with unique tokens (Redlock) on an unfenced resource',
    options: {
      ...base, backend: 'redlock', workload: 'fenced-write', timeLimitS: 6, clients: 4, ttlMs: 203, seed: 1292596250, holdMs: 266, rate: 7, intervalMs: 1603, durationMs: 2608, recoverMs: 874, callTimeoutMs: 52,
      script: [
        { at: 249, until: 1258, fault: 'client-pause', target: { kind: 'client', worker: 1 } },
        { at: 0, until: 3156, fault: 'client-pause', target: { kind: 'holder' } },
        { at: 3215, until: 3653, fault: 'client-pause', target: { kind: 'acquirer' } },
      ],
    },
  },
];

describe('the evict fault, simulated', () => {
  it('evicts the held key and gives double writes without a fence; the checkers agree with the truth, and fence-claim holds', async () => {
    const evict = { ...base, nemesis: ['evict'] as RunOptions['nemesis'], timeLimitS: 10, holdMs: 1000 };
    const unfenced = await simulateRun(evict);
    expect(unfenced.history.some((op) => op.process === 'nemesis' && op.f === 'evicted')).toBe(true);
    const u = compareWithTruth(unfenced);
    expect(u.disagreements).toEqual([]);
    expect(u.lostTrue).toBeGreaterThan(0);
    expect(u.valid).toBe(false);
    const fenced = compareWithTruth(await simulateRun({ ...evict, resource: 'fence-claim' }));
    expect(fenced.disagreements).toEqual([]);
    expect(fenced.lostTrue).toBe(0);
    expect(fenced.valid).toBe(true);
  });
});

describe('the run interpreter, simulated', () => {
  it(`the real checkers report what the simulation knows happened (${RUNS} runs)`, async () => {
    const seed = testSeed('simulation', 'test/sim/simulation.test.ts');
    const totals = { runs: 0, ops: 0, events: 0, staleTrue: 0, staleReported: 0, lostTrue: 0, invalid: 0, faultsStruck: 0 };
    await fc.assert(
      fc.asyncProperty(runOptionsArbitrary, async (options) => {
        const run = await simulateRun(options);
        const c = compareWithTruth(run);
        totals.runs++;
        totals.ops += run.history.length;
        totals.events += run.events;
        totals.staleTrue += c.staleTrue;
        totals.staleReported += c.staleReported;
        totals.lostTrue += c.lostTrue;
        if (c.valid === false) totals.invalid++;
        if (run.history.some((op) => op.process === 'nemesis' && op.type === 'info' && op['error'] === undefined && op.f === 'pause')) totals.faultsStruck++;
        expect(c.disagreements, JSON.stringify(options)).toEqual([]);
      }),
      { seed, numRuns: RUNS },
    );
    console.log(`[simulation] ${JSON.stringify(totals)}`);
    // The suite must exercise the danger it judges: runs with real stale writes, lost updates and invalid verdicts.
    if (RUNS >= 200) {
      expect(totals.staleTrue).toBeGreaterThan(0);
      expect(totals.lostTrue).toBeGreaterThan(0);
      expect(totals.invalid).toBeGreaterThan(0);
    }
  }, 600_000);

  // Runs the suite once caught the checkers out on, kept as regressions (each names the bug).
  it.each(REGRESSIONS)('regression: $bug', async ({ options }) => {
    const c = compareWithTruth(await simulateRun(options));
    expect(c.disagreements).toEqual([]);
  });

  it('a plan replays to the identical history', async () => {
    const seed = testSeed('simulation-replay', 'test/sim/simulation.test.ts');
    await fc.assert(
      fc.asyncProperty(runOptionsArbitrary, async (options) => {
        const [a, b] = [await simulateRun(options), await simulateRun(options)];
        expect(JSON.stringify(b.history)).toBe(JSON.stringify(a.history));
        expect(b.truth).toEqual(a.truth);
      }),
      { seed, numRuns: 20 },
    );
  }, 120_000);
});
