/**
 * Fencing tokens must grow: with a monotonic backend, a grant whose acquire
 * was invoked after another grant completed must carry a larger token. A
 * lock service that forgets its counter (a single Redis restarted without
 * persistence resets its INCR) breaks this, and a fence then does the only
 * thing it can: it rejects every later holder, which keeps the data safe and
 * stops all progress. This checker reports the regression (invalid: the lock
 * service broke its promise) and the progress lost after it: how many writes
 * the resource rejected from then on (reads or writes: under fence-claim the
 * read is refused first), and how many writes it still accepted (once the
 * new counter passes the old fence, progress resumes).
 *
 * Two grants with the same token are a defect too, even when their acquires
 * overlapped (so that no order between them is promised): a fence cannot
 * tell the two holders apart and admits both. etcd's concurrency.Mutex
 * reports the revision at which Lock decided (Header().Revision), and two
 * waiters woken by one deletion get the same one (scenario S11).
 *
 * Unique tokens (Redlock) make no order promise: the check does not apply,
 * so its verdict is 'unknown' ("nothing to check") and it does not decide:
 * a passing verdict would claim something was checked. Its summary names
 * whose tokens they are: a `--client`'s as its ready line announced them
 * (unique, or none at all), else the backend's built-in client's.
 */
import type { History } from '../../history/op.js';
import { ACCESS_FS, compareTokens, describeToken, indexesOf, lockOps, tokenKey, type LockOp } from './lock-ops.js';
import { ms, verdict, type Anomaly, type CheckerVerdict, type LockChecker, type LockContext } from './verdict.js';

const NAME = 'grant-tokens';

export const grantTokensChecker: LockChecker = {
  name: NAME,
  decides: (context) => context.tokenKind === 'monotonic',
  check(history: History, context: LockContext): CheckerVerdict {
    if (context.tokenKind !== 'monotonic') return verdict(NAME, 'unknown', `${unorderedTokens(context)}: nothing to check`, []);
    const ops = lockOps(history);
    const grants = ops.filter((o) => o.f === 'acquire' && o.status === 'ok' && o.token !== undefined && o.completeTime !== undefined);
    const regressions = findRegressions(grants);
    const reuses = findReuses(grants, regressions);
    const stats: Record<string, number> = { grants: grants.length, regressions: regressions.length, reuses: reuses.length };
    if (regressions.length === 0 && reuses.length === 0) return verdict(NAME, true, `the ${grants.length} tokens granted only grew`, [], stats);
    if (regressions.length === 0)
      return verdict(
        NAME,
        false,
        `${reuses.length} token(s) granted to two holders whose acquires overlapped: a fence cannot tell them apart`,
        reuses.map(reuseAnomaly),
        stats,
      );
    const first = regressions[0]!;
    // Under fence-claim the read is what the fence refuses first; count every access.
    const after = ops.filter((o) => ACCESS_FS.includes(o.f) && o.invokeTime >= first.later.invokeTime);
    stats.accessesRejectedAfter = after.filter((o) => o.status === 'fail').length;
    stats.writesAcceptedAfter = after.filter((o) => o.f === 'write' && o.status === 'ok').length;
    const progress =
      stats.writesAcceptedAfter === 0 && stats.accessesRejectedAfter > 0
        ? `the resource rejected all ${stats.accessesRejectedAfter} accesses after it: no progress from then on`
        : `after it the resource rejected ${stats.accessesRejectedAfter} accesses and accepted ${stats.writesAcceptedAfter} writes (progress resumed once the new tokens passed the old fence)`;
    const twice = reuses.length === 0 ? '' : `; ${reuses.length} token(s) granted twice to overlapping acquires`;
    return verdict(
      NAME,
      false,
      `${regressions.length} token regression(s) at the lock service${twice}; ${progress}`,
      [...regressions.map(anomaly), ...reuses.map(reuseAnomaly)],
      stats,
    );
  },
};

/** Whose tokens these are and why they have no order: the client's as its ready line announced them, else the backend's built-in client's. */
function unorderedTokens(context: LockContext): string {
  if (context.clientToken !== undefined)
    return context.clientToken === 'none' ? 'the client announces no token' : 'the client announces unique tokens, not ordered ones';
  return context.backend === 'none' ? 'no lock (--backend none), so no token' : `${context.backend} issues unique tokens, not ordered ones`;
}

interface Regression {
  earlier: LockOp;
  later: LockOp;
}

/** Each grant whose token is not above the largest token of the grants completed before its acquire was invoked. */
function findRegressions(grants: readonly LockOp[]): Regression[] {
  const byCompletion = [...grants].sort((a, b) => a.completeTime! - b.completeTime!);
  const byInvoke = [...grants].sort((a, b) => a.invokeTime - b.invokeTime);
  const out: Regression[] = [];
  let max: LockOp | undefined;
  let next = 0;
  for (const g of byInvoke) {
    for (; next < byCompletion.length && byCompletion[next]!.completeTime! < g.invokeTime; next++) {
      const c = byCompletion[next]!;
      if (max === undefined || (compareTokens(c.token!, max.token!) ?? 0) > 0) max = c;
    }
    if (max !== undefined && (compareTokens(g.token!, max.token!) ?? 1) <= 0) out.push({ earlier: max, later: g });
  }
  return out;
}

/**
 * Pairs of grants with equal tokens that findRegressions did not report (their
 * acquires overlapped, so neither follows the other): each later grant with the
 * first earlier grant of the same token.
 */
function findReuses(grants: readonly LockOp[], regressions: readonly Regression[]): Regression[] {
  const reported = new Set(regressions.map((r) => r.later));
  const byCompletion = [...grants].sort((a, b) => a.completeTime! - b.completeTime!);
  // The first grant of each token, by completion: one pass, not a scan of the earlier grants for each.
  const first = new Map<string, LockOp>();
  const out: Regression[] = [];
  for (const later of byCompletion) {
    const key = tokenKey(later.token!);
    if (key === undefined) continue;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, later);
    else if (!reported.has(later)) out.push({ earlier, later });
  }
  return out;
}

function reuseAnomaly(r: Regression): Anomaly {
  return {
    kind: 'token-reuse',
    message: `p${r.earlier.process} was granted ${describeToken(r.earlier.token)} at ${ms(r.earlier.completeTime!)} and p${r.later.process} the same ${describeToken(r.later.token)} at ${ms(r.later.completeTime!)}: one fencing token for two holders, so a fence admits both.`,
    processes: [...new Set([r.earlier.process, r.later.process])],
    tokens: [r.earlier.token!, r.later.token!],
    window: { start: Math.min(r.earlier.invokeTime, r.later.invokeTime), end: r.later.completeTime! },
    opIndexes: [...indexesOf(r.earlier), ...indexesOf(r.later)],
  };
}

function anomaly(r: Regression): Anomaly {
  return {
    kind: 'token-regression',
    message: `p${r.later.process} was granted ${describeToken(r.later.token)} at ${ms(r.later.completeTime!)}, after p${r.earlier.process} had been granted ${describeToken(r.earlier.token)} at ${ms(r.earlier.completeTime!)}: the lock service's tokens went backwards.`,
    processes: [...new Set([r.earlier.process, r.later.process])],
    tokens: [r.earlier.token!, r.later.token!],
    window: { start: r.earlier.invokeTime, end: r.later.completeTime! },
    opIndexes: [...indexesOf(r.earlier), ...indexesOf(r.later)],
  };
}
