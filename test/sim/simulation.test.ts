/**
 * Deterministic simulation of the real run interpreter (see simulate-run.ts):
 * random plans, each run on virtual time against a world that knows the
 * truth, and the real checkers held against it (compare-with-truth.ts). A
 * batch fails unless it showed the danger (stale writes, lost updates,
 * double holds, including ones the history makes definite, jobs done twice,
 * refusals, invalid verdicts), ran every simulated backend and every
 * workload (mutex, lock-counter, fenced-write, jobs) and struck with every
 * fault kind a simulated backend takes. FC_SIM_RUNS sets the number of
 * simulated runs (default 1,000), FC_SIM_REPLAYS the plans replayed to
 * identical histories (default 200); FC_SEED replays a seed.
 *
 * Not covered here (real clusters only: test/integration, `fencecheck run`):
 *   redis-sentinel      no simulated Sentinel (replication, the sentinels'
 *                       failover vote, the client's master discovery);
 *   redlock-npm         the npm library drives ioredis's own sockets and
 *                       Date.now, not the client runtime's ports, so it
 *                       cannot run on virtual time;
 *   pg-advisory, pg-advisory-pooled
 *                       the simulated PostgreSQL has no advisory (session)
 *                       locks;
 *   memcached           no built-in client, only a foreign --client process;
 * and of the fault kinds, session-end: it ends the server session a lock
 * lives in, which only the pg-advisory backends have. Both lists are
 * asserted below by name, so neither can grow unseen. Delay windows come
 * from scripted plans only (as in the product: a delay needs its proxies,
 * which the scenarios and the hunt place).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../core/plan/run-options.js';
import { testSeed } from '../support/seed.js';
import { compareWithTruth } from './compare-with-truth.js';
import { runOptionsArbitrary } from './run-options-arbitrary.js';
import { simulateRun } from './simulate-run.js';
import { SIMULATED_BACKENDS } from './sim-lock-service.js';
import { FAULT_KINDS } from '../../core/generator/faults/registry.js';
import type { History } from '../../core/history/op.js';
import { analyseRun } from '../../core/analyse/analyse-run.js';
import { LOCK_BACKENDS, notApplicable } from '../../core/vocabulary.js';
import { WORKLOADS } from '../../core/workloads/registry.js';
import { faultOfStart } from '../../core/generator/faults/fault-of-op.js';

const RUNS = Number(process.env['FC_SIM_RUNS'] ?? 1000);
/** Plans run twice and compared (FC_SIM_REPLAYS; default 200). */
const REPLAYS = Number(process.env['FC_SIM_REPLAYS'] ?? 200);

/** The fault kinds a run's nemesis applied without error (its start op's info), read as the evidence reads them. */
function faultsStruck(history: History): Set<string> {
  const kinds = new Set<string>();
  for (const op of history) {
    if (op.process !== 'nemesis' || op.type !== 'info' || op['error'] !== undefined) continue;
    const kind = faultOfStart(op.f, op.value);
    if (kind !== undefined) kinds.add(kind);
  }
  return kinds;
}

const base: RunOptions = {
  backend: 'redis',
  resource: 'none',
  workload: 'lock-counter',
  nemesis: ['client-pause'],
  timeLimitS: 5,
  clients: 5,
  ttlMs: 2000,
  seed: 1,
  holdMs: 200,
  rate: 2,
  intervalMs: 1000,
  durationMs: 1000,
  recoverMs: 1000,
  callTimeoutMs: 500,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
};

const REGRESSIONS: { bug: string; options: RunOptions }[] = [
  {
    bug: 'stale-writes took a grant learnt later (its acquirer paused with the answer in its pipe) for a later grant',
    options: {
      ...base,
      resource: 'fence-claim',
      timeLimitS: 3,
      clients: 3,
      ttlMs: 201,
      seed: 1155095465,
      holdMs: 76,
      rate: 7,
      intervalMs: 207,
      durationMs: 2940,
      recoverMs: 1992,
      callTimeoutMs: 798,
      script: [{ at: 9, until: 342, fault: 'client-pause', target: { kind: 'acquirer' } }],
    },
  },
  {
    bug: 'the same, with unique tokens (Redlock) on an unfenced resource',
    options: {
      ...base,
      backend: 'redlock',
      workload: 'fenced-write',
      timeLimitS: 6,
      clients: 4,
      ttlMs: 203,
      seed: 1292596250,
      holdMs: 266,
      rate: 7,
      intervalMs: 1603,
      durationMs: 2608,
      recoverMs: 874,
      callTimeoutMs: 52,
      script: [
        { at: 249, until: 1258, fault: 'client-pause', target: { kind: 'client', worker: 1 } },
        { at: 0, until: 3156, fault: 'client-pause', target: { kind: 'holder' } },
        { at: 3215, until: 3653, fault: 'client-pause', target: { kind: 'acquirer' } },
      ],
    },
  },
  {
    bug: "a Redis killed without persistence gives a token twice; the completeness check took the first acquire told the token for the writer's",
    options: {
      ...base,
      resource: 'cas-unique',
      nemesis: ['kill', 'evict'],
      clients: 3,
      ttlMs: 200,
      seed: 396564249,
      intervalMs: 206,
      durationMs: 575,
      recoverMs: 100,
      callTimeoutMs: 496,
    },
  },
  {
    bug: "the same, the later grant's token given twice (which of the two superseded the write, the history cannot tell)",
    options: {
      ...base,
      resource: 'cas-unique-nonatomic',
      workload: 'fenced-write',
      nemesis: ['kill', 'clock'],
      timeLimitS: 3,
      clients: 4,
      ttlMs: 200,
      seed: 2147483642,
      holdMs: 75,
      rate: 6,
      intervalMs: 323,
      durationMs: 1718,
      recoverMs: 100,
      callTimeoutMs: 497,
    },
  },
  {
    bug: 'fence-claim: a fenced write raises the fence as a claim does, for the truth and for the checker (fenced-write has no reads)',
    options: {
      ...base,
      resource: 'fence-claim',
      workload: 'fenced-write',
      nemesis: ['clock'],
      timeLimitS: 2,
      clients: 2,
      ttlMs: 200,
      seed: 433657917,
      holdMs: 20,
      rate: 3,
      intervalMs: 200,
      durationMs: 200,
      recoverMs: 100,
      callTimeoutMs: 50,
    },
  },
];

describe('the evict fault, simulated', () => {
  it('evicts the held key and gives lost updates without a fence; the checkers agree with the truth, and fence-claim keeps the counter', async () => {
    const evict = { ...base, nemesis: ['evict'] as RunOptions['nemesis'], timeLimitS: 10, holdMs: 1000 };
    const unfenced = await simulateRun(evict);
    expect(unfenced.history.some((op) => op.process === 'nemesis' && op.f === 'evicted')).toBe(true);
    const u = compareWithTruth(unfenced);
    expect(u.disagreements).toEqual([]);
    expect(u.lostTrue).toBeGreaterThan(0);
    expect(u.valid).toBe(false);
    const fencedRun = await simulateRun({ ...evict, resource: 'fence-claim' });
    const fenced = compareWithTruth(fencedRun);
    expect(fenced.disagreements).toEqual([]);
    expect(fenced.lostTrue).toBe(0);
    // The counter is right; a holder may still write before its successor's claim reaches the row (a stale write, reported).
    expect(analyseRun(fencedRun.history, fencedRun.plan.options).verdicts.find((v) => v.checker === 'lost-updates')?.valid).toBe(true);
  });
});

describe('the run interpreter, simulated', () => {
  it(`the real checkers report what the simulation knows happened (${RUNS} runs)`, async () => {
    const seed = testSeed('simulation', 'test/sim/simulation.test.ts');
    const totals = {
      runs: 0,
      ops: 0,
      events: 0,
      staleTrue: 0,
      staleReported: 0,
      lostTrue: 0,
      doubleHoldsTrue: 0,
      doubleHoldsVisible: 0,
      doubleHoldsReported: 0,
      refusals: 0,
      invalid: 0,
      interleavingsTrue: 0,
      duplicateJobsTrue: 0,
    };
    const backends = new Map<string, number>();
    const workloads = new Map<string, number>();
    const struck = new Map<string, number>();
    const started = Date.now();
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
        totals.doubleHoldsTrue += c.doubleHoldsTrue;
        totals.doubleHoldsVisible += c.doubleHoldsVisible;
        totals.doubleHoldsReported += c.doubleHoldsReported;
        totals.refusals += c.refusals;
        totals.interleavingsTrue += c.interleavingsTrue;
        totals.duplicateJobsTrue += c.duplicateJobsTrue;
        workloads.set(options.workload, (workloads.get(options.workload) ?? 0) + 1);
        if (c.valid === false) totals.invalid++;
        backends.set(options.backend, (backends.get(options.backend) ?? 0) + 1);
        for (const kind of faultsStruck(run.history)) struck.set(kind, (struck.get(kind) ?? 0) + 1);
        expect(c.disagreements, JSON.stringify(options)).toEqual([]);
      }),
      { seed, numRuns: RUNS },
    );
    console.log(
      `[simulation] ${RUNS} plans in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(totals)} backends ${JSON.stringify(Object.fromEntries(backends))} workloads ${JSON.stringify(Object.fromEntries(workloads))} struck ${JSON.stringify(Object.fromEntries(struck))}`,
    );
    // The batch must exercise the danger it judges, whatever its size: a batch that never showed it proves nothing.
    expect(totals.staleTrue, 'no run had a stale write').toBeGreaterThan(0);
    expect(totals.lostTrue, 'no run lost an update').toBeGreaterThan(0);
    expect(totals.doubleHoldsTrue, 'no run had the lock pass on without a release (a double hold)').toBeGreaterThan(0);
    expect(totals.doubleHoldsVisible, 'no run had a double hold the history shows definitely (the completeness claim was never tested)').toBeGreaterThan(0);
    expect(totals.doubleHoldsReported, 'no run had a double hold reported').toBeGreaterThan(0);
    expect(totals.refusals, 'no run had the resource refuse an access').toBeGreaterThan(0);
    expect(totals.interleavingsTrue, 'no run had two sections interleave at the resource').toBeGreaterThan(0);
    expect(totals.invalid, 'no run was judged invalid').toBeGreaterThan(0);
    expect(totals.duplicateJobsTrue, 'no jobs run had a job done twice').toBeGreaterThan(0);
    // Every simulated backend and every workload ran, and every fault kind struck (applied without error) somewhere in the batch.
    expect([...backends.keys()].sort()).toEqual([...SIMULATED_BACKENDS].sort());
    expect(LOCK_BACKENDS.filter((b) => !(SIMULATED_BACKENDS as readonly string[]).includes(b)).sort()).toEqual([
      'memcached',
      'pg-advisory',
      'pg-advisory-pooled',
      'redis-sentinel',
      'redlock-npm',
    ]);
    expect([...workloads.keys()].sort()).toEqual([...WORKLOADS].sort());
    // Every kind some simulated backend takes; the one it cannot is named, so the exemption cannot grow unseen
    // (session-end needs a lock in a server session, PostgreSQL's advisory locks, which the simulation does not model).
    const simulable = FAULT_KINDS.filter((k) => SIMULATED_BACKENDS.some((b) => notApplicable(b, 'none', [k], true) === undefined));
    expect(FAULT_KINDS.filter((k) => !simulable.includes(k))).toEqual(['session-end']);
    for (const kind of simulable) expect(struck.get(kind) ?? 0, `no ${kind} struck`).toBeGreaterThan(0);
  }, 600_000);

  // Runs the suite once caught the checkers out on, kept as regressions (each names the bug).
  it.each(REGRESSIONS)('regression: $bug', async ({ options }) => {
    const c = compareWithTruth(await simulateRun(options));
    expect(c.disagreements).toEqual([]);
  });

  it(`${REPLAYS} plans replay to identical histories`, async () => {
    const seed = testSeed('simulation-replay', 'test/sim/simulation.test.ts');
    await fc.assert(
      fc.asyncProperty(runOptionsArbitrary, async (options) => {
        const [a, b] = [await simulateRun(options), await simulateRun(options)];
        expect(JSON.stringify(b.history)).toBe(JSON.stringify(a.history));
        expect(b.truth).toEqual(a.truth);
      }),
      { seed, numRuns: REPLAYS },
    );
  }, 600_000);
});
