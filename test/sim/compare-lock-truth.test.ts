/**
 * The truth comparison's mutual-exclusion claims can fail (compare-lock-truth.ts):
 * a mutex run under a seeded client pause, where paused holders' leases run
 * out and the lock passes on while they still believe they hold it, held
 * against the checker's real verdict (no disagreement) and against the same
 * verdict with its double holds taken out (a missed double hold, named) or
 * its list cut and its count lowered (counted too few).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyseRun } from '../../core/analyse/analyse-run.js';
import { historyEnd, lockOps } from '../../core/checkers/lock/lock-ops.js';
import type { CheckerVerdict, LockCheckResult } from '../../core/checkers/lock/verdict.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { compareLockTruth, type LockTruthComparison } from './compare-lock-truth.js';
import { simulateRun } from './simulate-run.js';

const options: RunOptions = {
  backend: 'redis',
  resource: 'none',
  workload: 'mutex',
  nemesis: ['client-pause'],
  timeLimitS: 10,
  clients: 3,
  ttlMs: 500,
  seed: 1,
  holdMs: 200,
  rate: 4,
  intervalMs: 1000,
  durationMs: 2000,
  recoverMs: 1000,
  callTimeoutMs: 500,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
};

/** `checked` with the mutual-exclusion verdict changed by `edit`. */
function withMutex(checked: LockCheckResult, edit: (v: CheckerVerdict) => CheckerVerdict): LockCheckResult {
  return { ...checked, verdicts: checked.verdicts.map((v) => (v.checker === 'mutual-exclusion' ? edit(v) : v)) };
}

describe('the mutual-exclusion truth comparison', () => {
  let checked: LockCheckResult;
  let compare: (c: LockCheckResult) => LockTruthComparison;
  beforeAll(async () => {
    const run = await simulateRun(options);
    checked = analyseRun(run.history, run.plan.options);
    const ops = lockOps(run.history);
    compare = (c) => compareLockTruth(c, ops, historyEnd(run.history), run.truth, true);
  });

  it('agrees with the real checker, on a run with double holds the history shows', () => {
    const c = compare(checked);
    expect(c.disagreements).toEqual([]);
    expect(c.visibleDoubleHolds).toBeGreaterThan(0);
  });

  it('names every visible double hold a checker left out', () => {
    const c = compare(
      withMutex(checked, (v) => ({
        ...v,
        valid: true,
        anomalies: v.anomalies.filter((a) => a.kind !== 'double-hold'),
        anomalyCount: 0,
        stats: { ...v.stats, doubleHolds: 0 },
      })),
    );
    const missed = c.disagreements.filter((d) => d.startsWith('missed a double hold: '));
    expect(missed).toHaveLength(c.visibleDoubleHolds);
    expect(missed[0]).toMatch(/^missed a double hold: p\d+, told it holds \d+ .* both believed they held it from [\d.]+ to [\d.]+ ms$/);
  });

  it("counts them when the checker's list was cut", () => {
    const c = compare(withMutex(checked, (v) => ({ ...v, anomalies: [], anomalyCount: 1, stats: { ...v.stats, doubleHolds: 0 } })));
    expect(c.disagreements).toEqual([`mutual-exclusion counted 0 double holds, but the truth shows ${c.visibleDoubleHolds} the history makes definite`]);
  });
});
