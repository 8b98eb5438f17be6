/**
 * grant-tokens: a monotonic lock service's tokens only grow; a counter that
 * resets (single Redis restarted without persistence) is a regression, and
 * the fence then rejects every later write: the checker says so instead of
 * letting the run pass silently.
 */
import { describe, expect, it } from 'vitest';
import { grantTokensChecker } from '../../core/checkers/lock/grant-tokens.js';
import { checkersFor } from '../../core/checkers/lock/registry.js';
import { runCheckers } from '../../core/checkers/lock/verdict.js';
import { call, context, lockHistory, section } from './lock-history.js';
import { runResults } from '../../core/analyse/run-results.js';

const check = grantTokensChecker.check.bind(grantTokensChecker);

describe('grant-tokens', () => {
  it('growing tokens are valid', () => {
    const h = lockHistory(section(0, 5, 10, 20), section(1, 6, 30, 40), section(0, 9, 50, 60));
    expect(check(h, context())).toMatchObject({ valid: true, stats: { grants: 3, regressions: 0 } });
  });

  it('a counter reset is a regression, and the fence then stops all progress', () => {
    const h = lockHistory(
      section(0, 57, 10, 20, call(0, 'write', 12, 14, 'ok', { value: 'p0-0', token: 57 })),
      // Redis killed and restarted without persistence: INCR starts again at 1.
      section(1, 1, 100, 120, call(1, 'write', 105, 107, 'fail', { value: 'p1-0', token: 1, outcome: 'rejected' })),
      section(0, 2, 130, 150, call(0, 'write', 135, 137, 'fail', { value: 'p0-1', token: 2, outcome: 'rejected' })),
    );
    const v = check(h, context({ backend: 'redis' }));
    expect(v.valid).toBe(false);
    expect(v.summary).toBe('2 token regression(s) at the lock service; the resource rejected all 2 accesses after it: no progress from then on');
    expect(v.anomalies[0]).toMatchObject({ kind: 'token-regression', processes: [0, 1], tokens: [57, 1] });
    expect(v.anomalies[0]!.message).toBe(
      "p1 was granted token 1 at 100.0 ms, after p0 had been granted token 57 at 10.0 ms: the lock service's tokens went backwards.",
    );
  });

  it('concurrent acquires may complete in either order: only real-time precedence counts', () => {
    // p1's acquire (token 4) was invoked before p0's grant of token 5 completed: no order is promised between them.
    const h = lockHistory(...[call(0, 'acquire', 9, 20, 'ok', { token: 5 }), call(1, 'acquire', 10, 30, 'ok', { token: 4 })]);
    expect(check(h, context()).valid).toBe(true);
  });

  it('one token granted to two overlapping acquires is a defect: a fence cannot tell the holders apart', () => {
    // S11: two waiters woken by one deletion, each told the revision at which Lock decided (6).
    const h = lockHistory(
      call(0, 'acquire', 9, 20, 'ok', { token: 6 }),
      call(1, 'acquire', 10, 30, 'ok', { token: 6 }),
      call(1, 'acquire', 40, 50, 'ok', { token: 8 }),
    );
    const v = check(h, context());
    expect(v).toMatchObject({ valid: false, stats: { grants: 3, regressions: 0, reuses: 1 } });
    expect(v.summary).toBe('1 token(s) granted to two holders whose acquires overlapped: a fence cannot tell them apart');
    expect(v.anomalies).toHaveLength(1);
    expect(v.anomalies[0]).toMatchObject({ kind: 'token-reuse', processes: [0, 1], tokens: [6, 6], window: { start: 9_000_000, end: 30_000_000 } });
    expect(v.anomalies[0]!.message).toBe(
      'p0 was granted token 6 at 20.0 ms and p1 the same token 6 at 30.0 ms: one fencing token for two holders, so a fence admits both.',
    );
  });

  it('a token granted again after the first grant completed is reported once, as a regression', () => {
    const h = lockHistory(call(0, 'acquire', 9, 20, 'ok', { token: 2 }), call(1, 'acquire', 30, 40, 'ok', { token: 2 }));
    const v = check(h, context());
    expect(v.stats).toMatchObject({ regressions: 1, reuses: 0 });
    expect(v.anomalies.map((a) => a.kind)).toEqual(['token-regression']);
  });

  it('does not apply to unique tokens: unknown with nothing to check, and not deciding', () => {
    const h = lockHistory(section(0, 'b', 10, 20), section(1, 'a', 30, 40));
    const unique = context({ tokenKind: 'unique', backend: 'redlock' });
    expect(check(h, unique)).toMatchObject({ valid: 'unknown', summary: 'redlock issues unique tokens, not ordered ones: nothing to check' });
    expect(grantTokensChecker.decides?.(unique)).toBe(false);
    expect(grantTokensChecker.decides?.(context())).toBe(true);
    // A Redlock run whose other checkers pass is valid: the unknown does not decide it.
    const run = runCheckers(checkersFor('fenced-write'), h, { ...unique, resource: 'cas-unique' });
    expect(run.deciding).not.toContain('grant-tokens');
    expect(run.verdicts.find((v) => v.checker === 'grant-tokens')!.valid).toBe('unknown');
    expect(run.valid).toBe(true);
  });
});

describe('grant-tokens speaks of the token the run had', () => {
  // A run's files as the runner writes them, through runResults: a --client run carries the kind its ready line announced.
  const h = lockHistory(section(0, 'a', 10, 20), section(1, 'b', 30, 40));
  const summary = (backend: 'redis' | 'redlock' | 'none', token?: 'monotonic' | 'unique' | 'none') =>
    runResults(h, { workload: 'fenced-write', resource: 'none', backend }, 0, null, token === undefined ? undefined : { token, violations: [] }).checkers.find(
      (c) => c.checker === 'grant-tokens',
    )!;

  it('a foreign client that announces no token on redis: the client, not redis (whose built-in client is INCR, monotonic)', () => {
    const v = summary('redis', 'none');
    expect(v.valid).toBe('unknown');
    expect(v.summary).toBe('the client announces no token: nothing to check');
  });

  it("a foreign client that announces unique tokens: the client's tokens", () => {
    expect(summary('redis', 'unique').summary).toBe('the client announces unique tokens, not ordered ones: nothing to check');
  });

  it("the built-in Redlock client: the backend's tokens; no lock at all: no token", () => {
    expect(summary('redlock').summary).toBe('redlock issues unique tokens, not ordered ones: nothing to check');
    expect(summary('none').summary).toBe('no lock (--backend none), so no token: nothing to check');
  });
});
