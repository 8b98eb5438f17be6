/**
 * Shrinking a queue plan (pure, over simulated oracles): a plan whose failure needs one stall at least as long
 * as the lock and two workers shrinks, from generated starting plans, to exactly that (one window, no shorter
 * than the lock, two workers, a time limit a second past the window); a failure that needs a kill keeps a kill;
 * an oracle that never fails again changes nothing; the candidate budget is kept.
 */
import { describe, expect, it } from 'vitest';
import { Prng } from '../../core/random/prng.js';
import { WINDOW_FAULTS, type QueueWindow } from '../../core/queue/queue-window.js';
import { describeQueueShrunk, queueBoosts, shrinkQueuePlan, type QueueShrinkPlan } from '../../src/shrink/queue-shrink-plan.js';
import { testSeed } from '../support/seed.js';

const LOCK_MS = 2000;

function startPlan(rng: Prng): QueueShrinkPlan {
  const timeLimitS = rng.int(10, 40);
  const n = rng.int(1, 7);
  const windows: QueueWindow[] = Array.from({ length: n }, () => ({
    atMs: rng.int(0, timeLimitS * 1000 - 1),
    durationMs: rng.int(1, 5) * 1000,
    fault: rng.pick(WINDOW_FAULTS),
  })).sort((a, b) => a.atMs - b.atMs);
  // At least one stall past the lock: the plan fails.
  windows.splice(rng.int(0, n), 0, { atMs: windows[0]?.atMs ?? 0, durationMs: LOCK_MS * rng.int(2, 4), fault: 'pause' });
  windows.sort((a, b) => a.atMs - b.atMs);
  return { windows, workers: rng.int(2, 8), timeLimitS, rate: rng.pick([1, 2, 4]) };
}

/** Fails when a stall outlasts the lock while two workers run (one to stall, one to take the job again). */
const stallPastLock = async (p: QueueShrinkPlan): Promise<boolean> => p.workers >= 2 && p.windows.some((w) => w.fault === 'pause' && w.durationMs >= LOCK_MS);

describe('shrinking a queue plan', () => {
  it('ends on one stall no shorter than the lock, two workers, a second past the window', async () => {
    const rng = new Prng(testSeed('queue shrink', 'test/shrink/queue-shrink-plan.test.ts'));
    for (let i = 0; i < 40; i++) {
      const start = startPlan(rng);
      const r = await shrinkQueuePlan(start, stallPastLock, 200);
      expect(r.exhausted).toBe(false);
      expect(r.plan.windows).toHaveLength(1);
      const [w] = r.plan.windows;
      expect(w!.fault).toBe('pause');
      expect(w!.durationMs).toBeGreaterThanOrEqual(LOCK_MS);
      expect(w!.durationMs).toBeLessThan(2 * LOCK_MS);
      expect(r.plan.workers).toBe(2);
      expect(r.plan.timeLimitS).toBeLessThanOrEqual(Math.max(2, Math.ceil((w!.atMs + w!.durationMs) / 1000) + 1));
      expect(r.plan.rate).toBe(0.5);
      expect(await stallPastLock(r.plan)).toBe(true);
      expect(describeQueueShrunk(r.plan)).toMatch(/^1 fault window \(pause \d+ ms\), 2 workers, \d+ s$/);
    }
  });

  it('a failure that needs a kill keeps a kill; one worker suffices when the restart takes its own job', async () => {
    const needsKill = async (p: QueueShrinkPlan): Promise<boolean> => p.windows.some((w) => w.fault === 'kill');
    const start: QueueShrinkPlan = {
      windows: [
        { atMs: 1000, durationMs: 3000, fault: 'pause' },
        { atMs: 6000, durationMs: 3000, fault: 'kill' },
        { atMs: 12000, durationMs: 3000, fault: 'server-kill' },
      ],
      workers: 5,
      timeLimitS: 30,
      rate: 2,
    };
    const r = await shrinkQueuePlan(start, needsKill, 100);
    expect(r.plan.windows.map((w) => w.fault)).toEqual(['kill']);
    expect(r.plan.workers).toBe(1);
    // Its down time went to the floor in one step, not a halving series.
    expect(r.plan.windows[0]!.durationMs).toBe(100);
    expect(r.steps.filter((s) => s.step.startsWith('halve the length'))).toEqual([]);
  });

  it("a delay window's delay is halved while it still fails", async () => {
    const start: QueueShrinkPlan = { windows: [{ atMs: 2000, durationMs: 6000, fault: 'delay', delayMs: 8000 }], workers: 3, timeLimitS: 20, rate: 2 };
    const r = await shrinkQueuePlan(start, async (p) => p.windows.some((w) => w.fault === 'delay' && (w.delayMs ?? 0) >= 1000), 100);
    expect(r.plan.windows[0]!.delayMs).toBe(1000);
  });

  it('a plan that never fails again is left as it was, within the candidate budget', async () => {
    const start = startPlan(new Prng(7));
    let calls = 0;
    const r = await shrinkQueuePlan(
      start,
      async () => {
        calls++;
        return false;
      },
      9,
    );
    expect(r.plan).toEqual(start);
    expect(r.steps).toEqual([]);
    expect(calls).toBe(9);
    expect(r.exhausted).toBe(true);
  });
});

describe("a queue plan's boosts (tried first when its failure is rare)", () => {
  it('each window twice as long within the run, a delay twice as wide, one worker fewer down to two', () => {
    const plan: QueueShrinkPlan = {
      windows: [
        { atMs: 2000, durationMs: 3000, fault: 'pause' },
        { atMs: 7000, durationMs: 2000, fault: 'delay', delayMs: 1500 },
      ],
      workers: 3,
      timeLimitS: 10,
      rate: 2,
    };
    const b = Object.fromEntries(queueBoosts(plan));
    expect(b['lengthen window 1']?.windows[0]).toEqual({ atMs: 2000, durationMs: 6000, fault: 'pause' });
    // Cut at the run's end (7 s + 3 s, not 4 s), the other window untouched.
    expect(b['lengthen window 2']?.windows).toEqual([plan.windows[0], { atMs: 7000, durationMs: 3000, fault: 'delay', delayMs: 1500 }]);
    expect(b['widen the delay of window 1']).toBeUndefined();
    expect(b['widen the delay of window 2']?.windows[1]).toEqual({ atMs: 7000, durationMs: 2000, fault: 'delay', delayMs: 3000 });
    expect(b['one worker fewer']?.workers).toBe(2);
    expect(queueBoosts({ ...plan, workers: 2 }).find(([s]) => s === 'one worker fewer')?.[1]).toBeUndefined();
    // A window already reaching the run's end cannot be lengthened.
    expect(queueBoosts({ ...plan, windows: [{ atMs: 7000, durationMs: 3000, fault: 'kill' }] })[0]![1]).toBeUndefined();
  });
});
