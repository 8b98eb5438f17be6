/** Near misses read from a simulated history: the signs counted, scored, and said in words. */
import { describe, expect, it } from 'vitest';
import { describeNearMiss, nearMissOf, nearMissScore } from '../../src/hunt/near-miss.js';
import { runResults } from '../../core/analyse/run-results.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { simulateRun } from '../sim/simulate-run.js';
import { call, lockHistory, nemesis } from '../lock-checkers/lock-history.js';

const base: RunOptions = {
  backend: 'redis',
  resource: 'none',
  workload: 'lock-counter',
  nemesis: ['client-pause'],
  timeLimitS: 4,
  clients: 3,
  ttlMs: 500,
  seed: 7,
  holdMs: 200,
  rate: 4,
  intervalMs: 1000,
  durationMs: 1000,
  recoverMs: 500,
  callTimeoutMs: 300,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
};

describe('near misses', () => {
  it('a holder paused past its lease between read and write: grants while it was paused, its late write', async () => {
    const script = [
      { at: 1000, until: 2500, fault: 'client-pause' as const, target: { kind: 'holder' as const }, trigger: { on: 'holder-read' as const, withinMs: 2000 } },
    ];
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

  it("on a session lock, a write begun after the server ended its holder's session is late; the lease (which nothing applies) is not", () => {
    // p0 granted at 100 ms with a 500 ms "lease", its session ended at 300 ms, its write begun at 400 and at 900 ms (both after the end);
    // p1 granted at 1000 ms and writing at 1200 ms: its session was never ended.
    const history = lockHistory(
      call(0, 'acquire', 90, 100, 'ok', { token: 1 }),
      [
        [300, 'nemesis', 'invoke', 'end-session', { target: 'c1', pid: 9, process: 0, token: 1 }, {}],
        [303, 'nemesis', 'info', 'end-session', { target: 'c1', pid: 9, process: 0, token: 1 }, { node: 'pgl1', backends: [77] }],
      ],
      call(0, 'write', 400, 410, 'ok', { startedMs: 400 }),
      call(0, 'write', 900, 910, 'ok', { startedMs: 900 }),
      call(1, 'acquire', 950, 1000, 'ok', { token: 2 }),
      call(1, 'write', 1200, 1210, 'ok', { startedMs: 1200 }),
      // p0's next grant opens a new session: its writes after it are not late.
      call(0, 'acquire', 1300, 1400, 'ok', { token: 3 }),
      call(0, 'write', 1500, 1510, 'ok', { startedMs: 1500 }),
    );
    const results = { valid: true as const };
    const session = nearMissOf(history, results, 1, 500, false, true);
    expect(session.sessionLateWrites).toBe(2);
    expect(session.lateWrites).toBe(0);
    expect(describeNearMiss(session)).toContain('2 writes after their session ended');
    // As a leased lock, the same history's late writes are measured against the lease instead (p0's 900 ms write, 800 ms after its grant).
    const leased = nearMissOf(history, results, 1, 500, false, false);
    expect(leased.lateWrites).toBe(1);
    // An end-session that ended nothing (an error) makes nobody's writes late.
    const none = history.map((op) => (op.process === 'nemesis' && op.type === 'info' ? { ...op, error: 'no session held the lock on pgl1 any more' } : op));
    expect(nearMissOf(none, results, 1, 500, false, true).sessionLateWrites).toBe(0);
  });
});
