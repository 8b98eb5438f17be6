/**
 * access-stats: counts by f and completion, access outcomes (the `outcome`
 * field first, else the completion type), the acquire success rate, the
 * "safe but useless" flag, and 'unknown' for a history without acquires.
 */
import { describe, expect, it } from 'vitest';
import { accessStatsChecker } from '../../core/checkers/lock/access-stats.js';
import type { History } from '../../core/history/op.js';
import { call, context, lockHistory, section } from './lock-history.js';

const check = (h: History) => accessStatsChecker.check(h, context());

describe('access-stats', () => {
  it('counts completions by f and accesses by outcome', () => {
    const h = lockHistory(
      section(0, 1, 10, 20, call(0, 'write', 12, 13, 'ok', { value: 'a', token: 1, outcome: 'accepted' })),
      call(1, 'acquire', 5, 30, 'fail'),
      section(1, 2, 40, 50, call(1, 'write', 42, 43, 'fail', { value: 'b', token: 2 }), call(1, 'read', 44, 45, 'ok', { result: 'a' })),
      call(2, 'acquire', 60, 70, 'info'),
      section(3, 3, 80, 90, call(3, 'write', 82, 85, 'info', { value: 'c', token: 3, outcome: 'unknown' })),
      call(4, 'acquire', 95, null),
    );
    const v = check(h);
    expect(v.valid).toBe(true);
    expect(v.stats).toEqual({
      'acquire.invoked': 6,
      'acquire.ok': 3,
      'acquire.fail': 1,
      'acquire.info': 1,
      'acquire.pending': 1,
      'release.invoked': 3,
      'release.ok': 3,
      'write.invoked': 3,
      'write.ok': 1,
      'write.accepted': 1,
      'write.fail': 1,
      'write.rejected': 1,
      'write.info': 1,
      'write.unknown': 1,
      'read.invoked': 1,
      'read.ok': 1,
      'read.accepted': 1,
      acquireSuccessRate: 0.5,
    });
    expect(v.summary).toBe('3 of 6 acquires granted (50%); writes: 1 accepted, 1 rejected, 1 unknown');
  });

  it('a fence that rejected every write is flagged safe but useless', () => {
    const h = lockHistory(
      section(0, 1, 10, 20, call(0, 'write', 12, 13, 'fail', { value: 'a', token: 1, outcome: 'rejected' })),
      section(1, 2, 30, 40, call(1, 'write', 32, 33, 'fail', { value: 'b', token: 2, outcome: 'rejected' })),
    );
    const v = check(h);
    expect(v).toMatchObject({ valid: true, stats: { useless: 1, 'write.rejected': 2 } });
    expect(v.summary).toBe('2 of 2 acquires granted (100%); writes: 0 accepted, 2 rejected, 0 unknown; the fence rejected every write: safe but useless');
  });

  it('a history without acquires tested nothing', () => {
    expect(check(lockHistory(call(0, 'final-read', 0, 1, 'ok', { result: 0 })))).toMatchObject({
      valid: 'unknown',
      summary: 'the history has no acquire: nothing was tested',
    });
    expect(check([]).valid).toBe('unknown');
  });
});
