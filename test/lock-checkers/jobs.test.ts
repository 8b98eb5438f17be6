/**
 * jobs: each job's done records (writes of its number) against the final
 * position: jobs done exactly once, done twice (a paused holder's run with
 * effect), wasted runs a fence refused, lost jobs (a stale record set the
 * stream back), phantoms, a missing final read, and the rates.
 */
import { describe, expect, it } from 'vitest';
import { jobsChecker } from '../../core/checkers/lock/jobs.js';
import type { History, Value } from '../../core/history/op.js';
import { call, context, lockHistory, section, type Ev } from './lock-history.js';

const check = (h: History) => jobsChecker.check(h, context({ workload: 'jobs', resource: 'none' }));

/** One job's section: read position `read` at +1 ms, do the job, record job read + 1 at +writeAt ms. */
function job(p: number, token: number, acquiredMs: number, read: number, writeAt = 5, type: 'ok' | 'fail' | 'info' = 'ok', outcome?: 'rejected'): Ev[] {
  return section(
    p,
    token,
    acquiredMs,
    acquiredMs + writeAt + 5,
    call(p, 'read', acquiredMs + 1, acquiredMs + 2, 'ok', { result: read, token }),
    call(p, 'write', acquiredMs + writeAt, acquiredMs + writeAt + 1, type, { value: read + 1, token, ...(outcome ? { outcome } : {}) }),
  );
}

const finalRead = (ms: number, value: Value): Ev[] => call(99, 'final-read', ms, ms + 1, 'ok', { result: value });
/** A client pause that struck: its invoke and its info without error. */
const pause = (ms: number): Ev[] => [
  [ms, 'nemesis', 'invoke', 'pause', { pid: 7 }, {}],
  [ms + 1, 'nemesis', 'info', 'pause', { pid: 7 }, {}],
];

describe('jobs', () => {
  it('a serial stream, every job recorded once and the position at the last: valid', () => {
    const v = check(lockHistory(job(0, 1, 10, 0), job(1, 2, 30, 1), job(0, 3, 50, 2), finalRead(100, 3)));
    expect(v).toMatchObject({ valid: true, anomalyCount: 0, stats: { jobs: 3, duplicates: 0, lost: 0, wasted: 0, final: 3, duplicatesPerThousand: 0 } });
    expect(v.summary).toBe('every one of 3 jobs done exactly once (0 wasted run(s) refused, 0 indeterminate)');
  });

  it('a paused holder that records the job the next holder did is a duplicate, named with both runs', () => {
    // p0 reads 0 (job 1 is next), pauses past its lease; p1 acquires, reads 0, does job 1; p0 wakes and records job 1 too.
    const h = lockHistory(
      pause(3),
      section(0, 1, 1, 70, call(0, 'read', 2, 3, 'ok', { result: 0, token: 1 }), call(0, 'write', 60, 61, 'ok', { value: 1, token: 1 })),
      section(1, 2, 40, 50, call(1, 'read', 41, 42, 'ok', { result: 0, token: 2 }), call(1, 'write', 43, 44, 'ok', { value: 1, token: 2 })),
      finalRead(100, 1),
    );
    const v = check(h);
    expect(v).toMatchObject({
      valid: false,
      anomalyCount: 1,
      stats: { jobs: 1, duplicates: 1, extraRuns: 1, lost: 0, final: 1, faultsApplied: 1, duplicatesPerThousand: 1000 },
    });
    expect(v.anomalies[0]).toMatchObject({ kind: 'duplicate-job', processes: [1, 0], tokens: [2, 1] });
    expect(v.anomalies[0]!.message).toBe('job 1 was recorded done 2 times: p1 (token 2) ok at 44.0 ms; p0 (token 1) ok at 61.0 ms. Each of them ran it.');
  });

  it('the same pause with the stale record refused by a fence: no duplicate, one wasted run', () => {
    const h = lockHistory(
      section(0, 1, 1, 70, call(0, 'read', 2, 3, 'ok', { result: 0, token: 1 }), call(0, 'write', 60, 61, 'fail', { value: 1, token: 1, outcome: 'rejected' })),
      section(1, 2, 40, 50, call(1, 'read', 41, 42, 'ok', { result: 0, token: 2 }), call(1, 'write', 43, 44, 'ok', { value: 1, token: 2 })),
      finalRead(100, 1),
    );
    expect(check(h)).toMatchObject({ valid: true, stats: { jobs: 1, duplicates: 0, wasted: 1, final: 1 } });
  });

  it('a stale record that sets the stream back loses the jobs after it when the run ends there', () => {
    // p0 read 0 long ago; p1 does jobs 1, 2, 3; p0 wakes and records job 1: the position is 1 again, jobs 2 and 3 are gone.
    const h = lockHistory(
      section(0, 1, 1, 90, call(0, 'read', 2, 3, 'ok', { result: 0, token: 1 }), call(0, 'write', 80, 81, 'ok', { value: 1, token: 1 })),
      job(1, 2, 20, 0),
      job(1, 3, 40, 1),
      job(1, 4, 60, 2),
      finalRead(100, 1),
    );
    const v = check(h);
    expect(v).toMatchObject({ valid: false, stats: { jobs: 3, duplicates: 1, lost: 2, final: 1 } });
    expect(v.anomalies.map((a) => a.kind)).toEqual(['duplicate-job', 'lost-job', 'lost-job']);
    expect(v.anomalies[1]!.message).toMatch(/^job 2 was recorded done by p1 \(ok at 46\.0 ms\), but the final position is 1/);
  });

  it('an indeterminate record may have landed: a final position at it is no phantom', () => {
    const h = lockHistory(job(0, 1, 10, 0), job(1, 2, 30, 1, 5, 'info'), finalRead(100, 2));
    expect(check(h)).toMatchObject({ valid: true, stats: { jobs: 1, maybeRuns: 1, final: 2 } });
  });

  it('a final position no write could have made is a phantom', () => {
    const v = check(lockHistory(job(0, 1, 10, 0), finalRead(100, 5)));
    expect(v.valid).toBe(false);
    expect(v.anomalies.map((a) => a.kind)).toEqual(['phantom-update']);
  });

  it('without a successful final read the stream cannot be checked: unknown, with the counts kept', () => {
    const v = check(lockHistory(job(0, 1, 10, 0), call(99, 'final-read', 100, 101, 'info', { error: 'pg-connect' })));
    expect(v).toMatchObject({ valid: 'unknown', stats: { jobs: 1 } });
    expect(v.summary).toContain('its attempts failed: pg-connect');
  });

  it("rates: duplicates per hour over the span of the client ops, with Wilson's interval", () => {
    // 1 of 2 jobs duplicated over 91 ms of client time (the first acquire at 1 ms to the last release at 92 ms).
    const h = lockHistory(
      section(0, 1, 1, 70, call(0, 'read', 2, 3, 'ok', { result: 0, token: 1 }), call(0, 'write', 60, 61, 'ok', { value: 1, token: 1 })),
      section(1, 2, 40, 50, call(1, 'read', 41, 42, 'ok', { result: 0, token: 2 }), call(1, 'write', 43, 44, 'ok', { value: 1, token: 2 })),
      job(1, 3, 80, 1),
      finalRead(100, 2),
    );
    const s = check(h).stats!;
    expect(s).toMatchObject({ jobs: 2, duplicates: 1, duplicatesPerThousand: 500, spanS: 0.1 });
    expect(s.duplicatesPerHour).toBeCloseTo(3600 / 0.091, -1);
    expect(s.ciLow).toBeCloseTo(0.0945, 3);
    expect(s.ciHigh).toBeCloseTo(0.9055, 3);
  });
});
