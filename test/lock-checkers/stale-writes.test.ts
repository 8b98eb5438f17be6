/**
 * stale-writes: a paused holder whose write is accepted after the lock was
 * granted to another is a stale write naming both processes and tokens; a
 * fence that rejects it is not; token regressions only with monotonic tokens.
 */
import { describe, expect, it } from 'vitest';
import { staleWritesChecker } from '../../core/checkers/lock/stale-writes.js';
import type { History } from '../../core/history/op.js';
import { call, context, lockHistory, nemesis, ns, section } from './lock-history.js';

const check = (h: History, tokenKind: 'monotonic' | 'unique' = 'monotonic') => staleWritesChecker.check(h, context({ tokenKind }));

/** p0 acquires token 1, is paused from 5 to 3000 ms, and writes at 3000; p1 acquires token 2 at 1500 and writes at 1600. */
function pausedHolder(lateWrite: 'ok' | 'fail' | 'info'): History {
  return lockHistory(
    section(0, 1, 1, 3100, call(0, 'write', 3000, 3010, lateWrite, { value: 'p0-0', token: 1 })),
    nemesis(5, 'pause', { target: 'c0' }),
    nemesis(3000, 'resume', { target: 'c0' }),
    section(1, 2, 1500, 1700, call(1, 'write', 1600, 1610, 'ok', { value: 'p1-0', token: 2 })),
  );
}

describe('stale-writes', () => {
  it('a write sent before the next grant but begun after it (it sat in a paused client) is stale; without `started` it is not provably so', () => {
    const h = (startedMs?: number) =>
      lockHistory(
        section(0, 1, 1, 3100, call(0, 'write', 200, 3010, 'ok', { value: 'p0-0', token: 1, ...(startedMs !== undefined ? { startedMs } : {}) })),
        section(1, 2, 1500, 1700, call(1, 'write', 1600, 1610, 'ok', { value: 'p1-0', token: 2 })),
      );
    expect(check(h(3000), 'unique')).toMatchObject({ valid: false, stats: { staleWrites: 1 } });
    expect(check(h(), 'unique')).toMatchObject({ valid: true, stats: { staleWrites: 0 } });
  });

  it('a correct fenced run is valid', () => {
    const h = lockHistory(
      section(0, 1, 10, 30, call(0, 'write', 12, 14, 'ok', { value: 'p0-0', token: 1 })),
      section(1, 2, 40, 60, call(1, 'write', 42, 44, 'ok', { value: 'p1-0', token: 2 })),
      section(0, 3, 70, 90, call(0, 'write', 72, 74, 'ok', { value: 'p0-1', token: 3 })),
    );
    expect(check(h)).toMatchObject({ valid: true, anomalyCount: 0, stats: { acceptedWrites: 3, staleWrites: 0, tokenRegressions: 0 } });
  });

  it("a paused holder's write accepted after the next holder acquired is a stale write, and a token regression", () => {
    const h = pausedHolder('ok');
    const v = check(h);
    expect(v).toMatchObject({ valid: false, anomalyCount: 2, stats: { staleWrites: 1, tokenRegressions: 1 } });
    const [stale, regression] = v.anomalies;
    expect(stale).toMatchObject({ kind: 'stale-write', processes: [0, 1], tokens: [1, 2], window: { start: ns(1), end: ns(3010) } });
    expect(stale!.message).toBe(
      'p0 acquired the lock with token 1 at 1.0 ms; it was granted to p1 with token 2 at 1500.0 ms; p0\'s write of "p0-0" under token 1, begun at 3000.0 ms, was accepted at 3010.0 ms.',
    );
    expect(stale!.opIndexes.map((i) => `${h[i]!.process}:${h[i]!.f}:${h[i]!.type}`)).toEqual([
      '0:acquire:invoke',
      '0:acquire:ok',
      '1:acquire:invoke',
      '1:acquire:ok',
      '0:write:invoke',
      '0:write:ok',
    ]);
    expect(regression).toMatchObject({ kind: 'token-regression', processes: [0, 1], tokens: [1, 2], window: { start: ns(1600), end: ns(3010) } });
    expect(regression!.message).toBe(
      "p0's write under token 1 (invoked at 3000.0 ms) was accepted at 3010.0 ms, after p1's write under the higher token 2 had been accepted at 1610.0 ms.",
    );
  });

  it('unique tokens (Redlock) have no order, so only the stale write counts', () => {
    expect(check(pausedHolder('ok'), 'unique')).toMatchObject({ valid: false, stats: { staleWrites: 1, tokenRegressions: 0 } });
  });

  it('a fence that rejects the late write is the fence working', () => {
    expect(check(pausedHolder('fail'))).toMatchObject({ valid: true, stats: { staleWrites: 0, maybeStaleWrites: 0 } });
  });

  it('an indeterminate late write may never have applied: counted, not decisive', () => {
    expect(check(pausedHolder('info'))).toMatchObject({ valid: true, stats: { maybeStaleWrites: 1 } });
  });

  it('a write invoked before the next grant is not stale, even if it completes after', () => {
    const h = lockHistory(
      section(0, 1, 1, 120, call(0, 'write', 50, 110, 'ok', { value: 'a', token: 1 })),
      section(1, 2, 100, 130, call(1, 'write', 115, 116, 'ok', { value: 'b', token: 2 })),
    );
    expect(check(h, 'unique').valid).toBe(true);
  });

  it('names the first later grant and counts the others', () => {
    const h = lockHistory(
      section(0, 1, 1, 3100, call(0, 'write', 3000, 3010, 'ok', { value: 'late', token: 1 })),
      section(1, 2, 1500, 1700),
      section(2, 3, 2000, 2100),
    );
    const v = check(h, 'unique');
    expect(v.anomalyCount).toBe(1);
    expect(v.anomalies[0]!.message).toContain('granted to p1 with token 2 at 1500.0 ms (and 1 more grant(s) before the write)');
  });

  it("fence-claim: the lock has passed on for the resource once the next holder's claim was accepted; a write before that claim is before its section", () => {
    const claimCheck = (h: History) => staleWritesChecker.check(h, context({ resource: 'fence-claim', workload: 'lock-counter' }));
    // p0 (token 1) paused past its lease writes at 3000; p1 got token 2 at 1500 and claims (its read) at `claimMs`.
    const h = (claimMs: number, lateWrite: 'ok' | 'fail' = 'ok') =>
      lockHistory(
        section(0, 1, 1, 3100, call(0, 'read', 2, 3, 'ok', { token: 1 }), call(0, 'write', 3000, 3010, lateWrite, { value: '1', token: 1 })),
        section(
          1,
          2,
          1500,
          4000,
          call(1, 'read', claimMs, claimMs + 5, 'ok', { token: 2 }),
          call(1, 'write', claimMs + 10, claimMs + 15, 'ok', { value: '2', token: 2 }),
        ),
      );
    // The claim after the write (the new holder paused at its grant): the fence had not heard of token 2, the new section reads the write.
    expect(claimCheck(h(3500))).toMatchObject({ valid: true, stats: { staleWrites: 0 } });
    // The claim before the write: stale by the resource's order (a fence refuses it, below; only a token given twice lets it through).
    expect(claimCheck(h(1600))).toMatchObject({ valid: false, stats: { staleWrites: 1 } });
    expect(claimCheck(h(1600, 'fail'))).toMatchObject({ valid: true, stats: { staleWrites: 0 } });
    // A claim under way when the write began is not known to precede it.
    expect(claimCheck(h(2999))).toMatchObject({ valid: true, stats: { staleWrites: 0 } });
    // Every other mode judges by the grant, as before: a write-only fence's new holder read unfenced.
    expect(check(h(3500))).toMatchObject({ valid: false, stats: { staleWrites: 1 } });
  });

  it('fence-claim: a fenced write raises the fence as a claim does (a section of writes only, fenced-write)', () => {
    const claimCheck = (h: History) => staleWritesChecker.check(h, context({ resource: 'fence-claim', workload: 'fenced-write' }));
    // p0 (token 1) writes at 3000, past its lease; p1 (token 2, granted at 1500) writes first at `firstWriteMs`.
    const h = (firstWriteMs: number, status: 'ok' | 'fail' = 'ok') =>
      lockHistory(
        section(0, 1, 1, 3100, call(0, 'write', 3000, 3010, 'ok', { value: 'a', token: 1 })),
        section(1, 2, 1500, 4000, call(1, 'write', firstWriteMs, firstWriteMs + 5, status, { value: 'b', token: 2 })),
      );
    expect(claimCheck(h(3500))).toMatchObject({ valid: true, stats: { staleWrites: 0 } });
    expect(claimCheck(h(1600))).toMatchObject({ valid: false, stats: { staleWrites: 1 } });
    // A write the fence refused raised nothing.
    expect(claimCheck(h(1600, 'fail'))).toMatchObject({ valid: true, stats: { staleWrites: 0 } });
  });

  it('token regressions need no pause: a lower token accepted after a higher one', () => {
    const h = lockHistory(
      section(0, 5, 10, 30, call(0, 'write', 12, 14, 'ok', { value: 'a', token: 5 })),
      section(1, 4, 40, 60, call(1, 'write', 42, 44, 'ok', { value: 'b', token: 4 })),
    );
    const v = check(h);
    expect(v).toMatchObject({ valid: false, stats: { staleWrites: 0, tokenRegressions: 1 } });
    // Tokens as decimal strings (an etcd revision beyond 2^53) compare exactly.
    const big = lockHistory(
      section(0, '9007199254740993', 10, 30, call(0, 'write', 12, 14, 'ok', { value: 'a', token: '9007199254740993' })),
      section(1, '9007199254740992', 40, 60, call(1, 'write', 42, 44, 'ok', { value: 'b', token: '9007199254740992' })),
    );
    expect(check(big).stats).toMatchObject({ tokenRegressions: 1 });
  });
});
