/** Near misses read from a simulated history: the signs counted, scored, and said in words. */
import { describe, expect, it } from 'vitest';
import { describeNearMiss, nearMissOf, nearMissScore } from '../../src/hunt/near-miss.js';
import { runResults } from '../../core/analyse/run-results.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { simulateRun } from '../sim/simulate-run.js';
import { call, lockHistory, nemesis } from '../lock-checkers/lock-history.js';

const base: RunOptions = {
  backend: 'redis', resource: 'none', workload: 'lock-counter', nemesis: ['client-pause'], timeLimitS: 4, clients: 3, ttlMs: 500, seed: 7, holdMs: 200, rate: 4,
  intervalMs: 1000, durationMs: 1000, recoverMs: 500, callTimeoutMs: 300, nemesisTarget: 'random', redisPersistence: 'none', resultsDir: 'unused', checkHold: false,
};

describe('near misses', () => {
  it('a holder paused past its lease between read and write: grants while it was paused, its late write', async () => {
    const script = [{ at: 1000, until: 2500, fault: 'client-pause' as const, target: { kind: 'holder' as const }, trigger: { on: 'holder-read' as const, withinMs: 2000 } }];
    const run = await simulateRun({ ...base, script });
    const results = runResults(run.history, base, 1, null);
    const m = nearMissOf(run.history, results, 1, base.ttlMs);
    expect(m.triggered).toBe(1);
    expect(m.pausedGrants).toBeGreaterThan(0);
    expect(m.lateWrites).toBeGreaterThanOrEqual(1);
    expect(describeNearMiss(m)).toMatch(/\d+ grants? while a holder was paused, \d+ writes? after the lease ended/);
    expect(nearMissScore({ ...m, violation: false })).toBeGreaterThan(0);
  });

  it('a quiet run is nothing dangerous and scores 0; a violation scores highest', async () => {
    const run = await simulateRun({ ...base, nemesis: [], script: [] });
    const m = nearMissOf(run.history, runResults(run.history, base, 0, null), 0, base.ttlMs);
    expect(describeNearMiss(m)).toBe('nothing dangerous');
    expect(nearMissScore(m)).toBe(0);
    expect(nearMissScore({ ...m, violation: true })).toBe(Infinity);
  });

  it('a waiter paused past its lease while its acquire was in flight, then granted: a slept grant where waiters hold a lease', () => {
    /** p0 sends its acquire at 100 ms, is paused from 200 ms for `pauseMs`, and is granted at 3000 ms. */
    const waiter = (pauseMs: number) =>
      lockHistory(
        call(0, 'acquire', 100, 3000, 'ok', { token: 5 }),
        nemesis(200, 'pause', { pid: 11, process: 0 }),
        nemesis(200 + pauseMs, 'resume', { pid: 11, process: 0 }),
      );
    const results = { valid: true as const };
    const slept = nearMissOf(waiter(2600), results, 1, 2000, true);
    expect(slept.sleptGrants).toBe(1);
    expect(describeNearMiss(slept)).toBe('1 grant to a waiter paused past its lease');
    expect(nearMissScore(slept)).toBeGreaterThan(0);
    // Shorter than the lease: its session lived through it.
    expect(nearMissOf(waiter(1500), results, 1, 2000, true).sleptGrants).toBe(0);
    // Where a waiter holds no lease (Redis), a grant after a long sleep is an ordinary one.
    expect(nearMissOf(waiter(2600), results, 1, 2000, false).sleptGrants).toBe(0);
  });
});
