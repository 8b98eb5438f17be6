/**
 * lost-updates (lock-counter): the final counter against the acknowledged
 * increments, the double-write witnesses (two holders read the same value),
 * indeterminate writes, phantoms, and a missing final read.
 */
import { describe, expect, it } from 'vitest';
import { lostUpdatesChecker } from '../../core/checkers/lock/lost-updates.js';
import type { History, Value } from '../../core/history/op.js';
import { call, context, lockHistory, ns, section, type Ev } from './lock-history.js';

const check = (h: History) => lostUpdatesChecker.check(h, context({ workload: 'lock-counter', resource: 'none' }));

/** A lock-counter section: read `read` at +1 ms, write read + 1 at +writeAt ms. */
function increment(p: number, token: number, acquiredMs: number, read: number, writeAt = 5, type: 'ok' | 'fail' | 'info' = 'ok'): Ev[] {
  return section(
    p,
    token,
    acquiredMs,
    acquiredMs + writeAt + 5,
    call(p, 'read', acquiredMs + 1, acquiredMs + 2, 'ok', { result: read, token }),
    call(p, 'write', acquiredMs + writeAt, acquiredMs + writeAt + 1, type, { value: read + 1, token }),
  );
}

const finalRead = (ms: number, value: Value): Ev[] => call(99, 'final-read', ms, ms + 1, 'ok', { result: value });

describe('lost-updates', () => {
  it('a serial run with every increment in the final counter is valid', () => {
    const v = check(lockHistory(increment(0, 1, 10, 0), increment(1, 2, 30, 1), increment(0, 3, 50, 2), finalRead(100, 3)));
    expect(v).toMatchObject({ valid: true, anomalyCount: 0, stats: { ackedWrites: 3, final: 3, lost: 0 } });
  });

  it('two ok writes of the same value are a lost update, with both reads, tokens and times', () => {
    // p0 reads 0 and stalls past its lease; p1 acquires, reads 0, writes 1; p0 wakes up and writes 1 too.
    const h = lockHistory(
      section(0, 1, 1, 70, call(0, 'read', 2, 3, 'ok', { result: 0, token: 1 }), call(0, 'write', 60, 61, 'ok', { value: 1, token: 1 })),
      section(1, 2, 40, 50, call(1, 'read', 41, 42, 'ok', { result: 0, token: 2 }), call(1, 'write', 43, 44, 'ok', { value: 1, token: 2 })),
      finalRead(100, 1),
    );
    const v = check(h);
    expect(v).toMatchObject({ valid: false, anomalyCount: 2, stats: { ackedWrites: 2, final: 1, lost: 1, duplicateWrites: 1 } });
    expect(v.anomalies[0]!.message).toBe('2 increments were acknowledged, but the final read (ok at 101.0 ms) found 1: at least 1 were lost.');
    const pair = v.anomalies[1]!;
    expect(pair).toMatchObject({ kind: 'lost-update', processes: [1, 0], tokens: [2, 1], window: { start: ns(2), end: ns(61) } });
    expect(pair.message).toBe(
      'p1 (token 2) read 0 at 41.0 ms and wrote 1, ok at 44.0 ms; p0 (token 1) read 0 at 2.0 ms and wrote 1, ok at 61.0 ms: both increments were acknowledged, the counter kept one.',
    );
    expect(pair.opIndexes.map((i) => `${h[i]!.process}:${h[i]!.f}:${h[i]!.type}`)).toEqual([
      '1:read:invoke',
      '1:read:ok',
      '1:write:invoke',
      '1:write:ok',
      '0:read:invoke',
      '0:read:ok',
      '0:write:invoke',
      '0:write:ok',
    ]);
  });

  it('a double write is lost even when an indeterminate write makes the count come out right', () => {
    const h = lockHistory(increment(0, 1, 10, 0), increment(1, 2, 30, 0), increment(2, 3, 50, 1, 5, 'info'), finalRead(100, 2));
    expect(check(h)).toMatchObject({ valid: false, anomalyCount: 1, stats: { ackedWrites: 2, maybeWrites: 1, final: 2, lost: 1 } });
  });

  it('indeterminate writes may or may not have applied: both finals are valid', () => {
    const run = (final: number) => lockHistory(increment(0, 1, 10, 0), increment(1, 2, 30, 1, 5, 'info'), finalRead(100, final));
    expect(check(run(1)).valid).toBe(true);
    expect(check(run(2)).valid).toBe(true);
  });

  it('rejected writes do not count, and counters written as strings read as numbers', () => {
    const h = lockHistory(increment(0, 1, 10, 0), section(1, 2, 30, 40, call(1, 'write', 31, 32, 'fail', { value: '1', token: 2 })), finalRead(100, '1'));
    expect(check(h)).toMatchObject({ valid: true, stats: { ackedWrites: 1, final: 1 } });
  });

  it('a final counter above every write that could have applied is a phantom', () => {
    const v = check(lockHistory(increment(0, 1, 10, 0), finalRead(100, 5)));
    expect(v.valid).toBe(false);
    expect(v.anomalies.map((a) => a.kind)).toEqual(['phantom-update']);
  });

  it('without a successful final read the count is unknown', () => {
    const h = lockHistory(increment(0, 1, 10, 0), call(99, 'final-read', 100, 101, 'info'));
    expect(check(h)).toMatchObject({ valid: 'unknown', summary: 'no successful final read, so the 1 acknowledged increments cannot be counted' });
  });

  it('a failed final read says its errors and the part of the harness that died', () => {
    const died = 'the delay proxy on c3 to pg1 was killed by SIGKILL mid-run; its log: logs/proxy-c3-pg1.log';
    const failedRead = (ms: number): Ev[] => [
      [ms, 9, 'invoke', 'final-read', null, {}],
      [ms + 1, 9, 'fail', 'final-read', null, { error: 'pg-connect' }],
    ];
    const h = lockHistory(
      increment(0, 1, 10, 0),
      [[50, 'nemesis', 'info', 'harness-died', { part: 'proxy c3->pg1' }, { error: died }]],
      failedRead(100),
      failedRead(110),
    );
    expect(check(h)).toMatchObject({
      valid: 'unknown',
      summary: `no successful final read (its attempts failed: pg-connect; ${died}), so the 1 acknowledged increments cannot be counted`,
    });
  });

  it('a final read that is not a counter is unknown', () => {
    expect(check(lockHistory(increment(0, 1, 10, 0), finalRead(100, 'p0-0'))).valid).toBe('unknown');
  });
});
