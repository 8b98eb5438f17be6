/**
 * Stale writes: the resource accepted a write from a client that was no
 * longer the only holder (Kleppmann's paused-client scenario).
 *
 * `stale-write`: process A acquired the lock (ok at time aA), then the lock
 * was granted to another process B under another token (B's acquire began
 * after aA and completed ok at aB), and A's write was invoked after aB and
 * accepted (ok). With fence-claim, B's grant counts only once the resource
 * knew it: an access of B's section that raises the fence (its claim, the
 * section's first read, or a fenced write) completed ok before A's write
 * began. Why: a fence-claim section begins with its claim, so a write the
 * fence accepted before it is, at the resource, before B's section, which
 * then reads it (the data holds: lost-updates and interleaved-sections
 * agree); a write accepted after B's claim is stale by the resource's own
 * order, which only a token given twice allows (an evicted INCR counter,
 * S16). Plain `fence` keeps the grant: its new holder reads unfenced, so a
 * write accepted after the grant can land between B's read and B's write
 * (a lost update). Why B's acquire must begin after aA: an acquire that began
 * earlier may have been granted before A's (its answer late, its lease run
 * out), and then A, not B, held the newer grant. Why the
 * write's invocation and not its completion: a write invoked before B's
 * grant may have taken effect before it, which is fine. Holds come from
 * holds.ts; only definite grants count, as a maybe-grant cannot be shown.
 *
 * `token-regression` (monotonic tokens only): an accepted write invoked after
 * another accepted write had completed, carrying a lower token. The resource
 * let an older holder overwrite a newer one's data, which a fence exists to
 * prevent.
 *
 * Indeterminate writes that would be stale are counted (`maybeStaleWrites`)
 * but do not decide: they may never have applied (Jepsen reads an `info` op
 * as possibly never happening). Rejected writes are the fence working.
 */
import type { History } from '../../history/op.js';
import { holdsOf, type Hold } from './holds.js';
import { compareTokens, describeToken, indexesOf, type LockOp, type Token } from './lock-ops.js';
import { ms, verdict, type Anomaly, type CheckerVerdict, type LockChecker, type LockContext, counterDecidesAlone } from './verdict.js';

const NAME = 'stale-writes';

interface TiedWrite {
  write: LockOp;
  hold: Hold;
  token: Token | undefined;
}

export const staleWritesChecker: LockChecker = {
  name: NAME,
  decides: (context) => !counterDecidesAlone(context),
  check(history: History, context: LockContext): CheckerVerdict {
    const { holds, ops } = holdsOf(history);
    const grants = holds.filter((h) => h.definite);
    const tied = grants.flatMap((hold) =>
      hold.accesses.filter((a) => a.f === 'write').map((write): TiedWrite => ({ write, hold, token: write.token ?? hold.token })),
    );
    const accepted = tied.filter((t) => t.write.status === 'ok');
    const stale: Anomaly[] = [];
    let maybeStaleWrites = 0;
    for (const t of tied) {
      const later = grantsBetween(grants, t).filter((g) => context.resource !== 'fence-claim' || claimedBefore(g, t.write.startTime));
      if (later.length === 0) continue;
      if (t.write.status === 'ok') stale.push(staleWrite(t, later));
      else if (t.write.status === 'info' || t.write.status === 'pending') maybeStaleWrites++;
    }
    const regressions = context.tokenKind === 'monotonic' ? tokenRegressions(accepted) : [];
    const stats = {
      acceptedWrites: accepted.length,
      staleWrites: stale.length,
      tokenRegressions: regressions.length,
      maybeStaleWrites,
      untiedWrites: ops.filter((o) => o.f === 'write').length - tied.length,
    };
    const anomalies = [...stale, ...regressions].sort((a, b) => a.window.end - b.window.end);
    if (anomalies.length > 0) {
      return verdict(NAME, false, `${stale.length} stale write(s) and ${regressions.length} token regression(s) accepted by the resource`, anomalies, stats);
    }
    return verdict(
      NAME,
      true,
      `none of ${accepted.length} accepted writes came from a holder whose lock had passed on (${maybeStaleWrites} indeterminate ones might have)`,
      [],
      stats,
    );
  },
};

/**
 * Definite grants to other processes, under other tokens, after the writer's
 * grant and before the write. `grants` is sorted by start (holdsOf sorts).
 */
function grantsBetween(grants: readonly Hold[], t: TiedWrite): Hold[] {
  let lo = 0;
  let hi = grants.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (grants[mid]!.start > t.hold.start) hi = mid;
    else lo = mid + 1;
  }
  const out: Hold[] = [];
  for (let i = lo; i < grants.length && grants[i]!.start < t.write.startTime; i++) {
    const g = grants[i]!;
    const sameToken = g.token !== undefined && t.token !== undefined && g.token === t.token;
    // Learning of a grant later does not make it a later grant: an acquirer paused with its answer in the
    // pipe was granted (and its lease may have run out) before the writer's grant. Only an acquire that
    // began after the writer's grant was known is surely granted after it (found by the simulation suite).
    const surelyAfter = g.acquire.startTime > t.hold.start;
    if (g.process !== t.hold.process && !sameToken && surelyAfter) out.push(g);
  }
  return out;
}

/**
 * Under fence-claim, an access of the hold that raises the fence (a read is its claim, a write is fenced) was
 * accepted before `time`: the resource knew its token then.
 */
function claimedBefore(hold: Hold, time: number): boolean {
  return hold.accesses.some((a) => (a.f === 'read' || a.f === 'write') && a.status === 'ok' && a.completeTime !== undefined && a.completeTime < time);
}

function staleWrite(t: TiedWrite, later: readonly Hold[]): Anomaly {
  const a = t.hold;
  const b = later[0]!;
  const more = later.length > 1 ? ` (and ${later.length - 1} more grant(s) before the write)` : '';
  const end = t.write.completeTime ?? t.write.invokeTime;
  return {
    kind: 'stale-write',
    message:
      `p${a.process} acquired the lock with ${describeToken(a.token)} at ${ms(a.start)}; it was granted to p${b.process} with ${describeToken(b.token)} at ${ms(b.start)}${more}; ` +
      `p${a.process}'s write of ${JSON.stringify(t.write.value)} under ${describeToken(t.token)}, begun at ${ms(t.write.startTime)}, was accepted at ${ms(end)}.`,
    processes: [a.process, b.process],
    tokens: [t.token, b.token].filter((x) => x !== undefined),
    window: { start: a.start, end },
    opIndexes: [...indexesOf(a.acquire), ...indexesOf(b.acquire), ...indexesOf(t.write)],
  };
}

/**
 * Accepted writes invoked after a higher-token write had completed. One sweep:
 * writes by completion feed a running maximum, writes by invocation read it.
 */
function tokenRegressions(accepted: readonly TiedWrite[]): Anomaly[] {
  const byCompletion = [...accepted].sort((x, y) => (x.write.completeTime ?? 0) - (y.write.completeTime ?? 0));
  const byInvoke = [...accepted].sort((x, y) => x.write.invokeTime - y.write.invokeTime);
  const out: Anomaly[] = [];
  let highest: TiedWrite | undefined;
  let next = 0;
  for (const w of byInvoke) {
    for (; next < byCompletion.length && (byCompletion[next]!.write.completeTime ?? Infinity) < w.write.invokeTime; next++) {
      const c = byCompletion[next]!;
      if (c.token === undefined) continue;
      if (highest?.token === undefined || (compareTokens(c.token, highest.token) ?? 0) > 0) highest = c;
    }
    if (highest?.token === undefined || w.token === undefined) continue;
    if ((compareTokens(w.token, highest.token) ?? 0) < 0) out.push(regression(highest, w));
  }
  return out;
}

function regression(high: TiedWrite, low: TiedWrite): Anomaly {
  const end = low.write.completeTime ?? low.write.invokeTime;
  return {
    kind: 'token-regression',
    message:
      `p${low.write.process}'s write under ${describeToken(low.token)} (invoked at ${ms(low.write.invokeTime)}) was accepted at ${ms(end)}, ` +
      `after p${high.write.process}'s write under the higher ${describeToken(high.token)} had been accepted at ${ms(high.write.completeTime ?? 0)}.`,
    processes: [low.write.process, high.write.process],
    tokens: [low.token, high.token].filter((x) => x !== undefined),
    window: { start: high.write.invokeTime, end },
    opIndexes: [...indexesOf(high.write), ...indexesOf(low.write)],
  };
}
