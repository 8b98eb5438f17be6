/**
 * Double holds within validity, read from simulated runs of the real
 * Redlock client (test/sim): Kleppmann's clock jump (S3's script) makes two
 * holders both inside the validity their grants promised; the same split
 * with clocks untouched (S10) makes none; a holder paused past its lease
 * makes double holds, but the paused one is past its validity, so none of
 * them counts. And on built histories: the window ends at the release, a
 * grant without validity has none, one process never overlaps itself.
 */
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../core/plan/run-options.js';
import { validDoubleHolds } from '../../src/scenarios/valid-double-holds.js';
import { CLOCK_JUMP_SCRIPT, RING_SCRIPT } from '../../src/scenarios/redlock-scenarios.js';
import { holdsOf } from '../../core/checkers/lock/holds.js';
import { simulateRun } from '../sim/simulate-run.js';
import { call, lockHistory } from '../lock-checkers/lock-history.js';

const S3_LIKE: RunOptions = {
  backend: 'redlock', resource: 'none', workload: 'lock-counter', nemesis: [], timeLimitS: 12, clients: 2, ttlMs: 2000, seed: 3, holdMs: 1500, rate: 4,
  intervalMs: 1000, durationMs: 1000, recoverMs: 500, callTimeoutMs: 300, nemesisTarget: 'random', redisPersistence: 'none', resultsDir: 'unused', checkHold: false,
};

/** Definite double holds as mutual exclusion counts them (a hold ends at its release). */
const doubleHolds = (history: Parameters<typeof holdsOf>[0]): number => {
  const holds = holdsOf(history).holds.filter((h) => h.definite);
  let n = 0;
  for (let i = 0; i < holds.length; i++) for (let j = i + 1; j < holds.length; j++) if (holds[i]!.process !== holds[j]!.process && holds[i]!.start < holds[j]!.end && holds[j]!.start < holds[i]!.end) n++;
  return n;
};

describe('double holds within validity', () => {
  it('a clock jump on the node two majorities share: two holders both within their validity', async () => {
    const run = await simulateRun({ ...S3_LIKE, script: CLOCK_JUMP_SCRIPT });
    expect(validDoubleHolds(run.history)).toBeGreaterThan(0);
  });

  it('the same split with clocks untouched: none', async () => {
    const run = await simulateRun({ ...S3_LIKE, clients: 3, script: RING_SCRIPT });
    expect(validDoubleHolds(run.history)).toBe(0);
  });

  it('a holder paused past its lease: double holds, none of them within both validities', async () => {
    const script = [{ at: 1000, until: 6000, fault: 'client-pause' as const, target: { kind: 'holder' as const }, trigger: { on: 'holder-read' as const, withinMs: 3000 } }];
    const run = await simulateRun({ ...S3_LIKE, clients: 3, script });
    expect(doubleHolds(run.history)).toBeGreaterThan(0);
    expect(validDoubleHolds(run.history)).toBe(0);
  });

  it('on built histories: ends at the release, needs a validity, never one process with itself', () => {
    const granted = (p: number, from: number, to: number, validityMs: number) => call(p, 'acquire', from, to, 'ok', { validityMs, startedMs: from });
    // p0 valid 100..1100 ms; p1 granted at 600 ms: overlap.
    expect(validDoubleHolds(lockHistory(granted(0, 100, 150, 1000), granted(1, 550, 600, 1000)))).toBe(1);
    // p0 releases at 500 ms first: no overlap.
    expect(validDoubleHolds(lockHistory(granted(0, 100, 150, 1000), call(0, 'release', 500, 520, 'ok'), granted(1, 550, 600, 1000)))).toBe(0);
    // p0's validity (200 ms) over by the time p1 is granted: a late holder, not this.
    expect(validDoubleHolds(lockHistory(granted(0, 100, 150, 200), granted(1, 550, 600, 1000)))).toBe(0);
    // No validity promised: nothing to break.
    expect(validDoubleHolds(lockHistory(call(0, 'acquire', 100, 150, 'ok'), call(1, 'acquire', 550, 600, 'ok')))).toBe(0);
    expect(validDoubleHolds(lockHistory(granted(0, 100, 150, 1000), granted(0, 550, 600, 1000)))).toBe(0);
  });
});
