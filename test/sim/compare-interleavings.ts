/**
 * Interleaved sections held against the simulated truth (sim-truth.ts
 * `accesses`: every access that took effect at the resource, outside a
 * transaction, with the token its client acted under):
 *
 *   sound     a reported pair (A, B) has an access under B's token that took
 *             effect strictly between two of A's;
 *   complete  where the history shows it definitely (A's accesses and B's
 *             all answered, none indeterminate: the k-th access A's client
 *             sent is the k-th that took effect), an access of B that took
 *             effect between two of A's whose history intervals lie apart
 *             (A's earlier one answered before B's was sent, B's answered
 *             before A's later one was sent) is reported.
 *
 * Only tokens granted once are compared (a token the service handed out
 * twice is two sections the truth cannot tell apart by token), and nothing
 * for runs in transactions (for-update: writes take effect at COMMIT) or
 * without a lock (no tokens).
 */
import type { CheckerVerdict } from '../../core/checkers/lock/verdict.js';
import type { LockOp } from '../../core/checkers/lock/lock-ops.js';
import type { SimTruth } from './sim-truth.js';

const ACCESSES = new Set(['read', 'write', 'mark']);

/** The disagreements, and how many definite interleavings the truth showed (so a batch can show the comparison was not empty). */
export function interleavingDisagreements(
  verdict: CheckerVerdict | undefined,
  ops: readonly LockOp[],
  truth: SimTruth,
): { disagreements: string[]; definitePairs: number } {
  if (verdict === undefined) return { disagreements: [], definitePairs: 0 };
  const once = new Set<string>();
  const granted = new Map<string, number>();
  for (const g of truth.grants) if (g.token !== undefined) granted.set(String(g.token), (granted.get(String(g.token)) ?? 0) + 1);
  for (const [t, n] of granted) if (n === 1) once.add(t);
  const applied = new Map<string, number[]>();
  for (const a of truth.accesses)
    if (a.token !== undefined && once.has(String(a.token)))
      (applied.get(String(a.token)) ?? applied.set(String(a.token), []).get(String(a.token))!).push(a.atMs);
  const out: string[] = [];
  const reported = new Set<string>();
  for (const a of verdict.anomalies.filter((x) => x.kind === 'interleaved-sections')) {
    const [ta, tb] = (a.tokens ?? []).map(String);
    if (ta === undefined || tb === undefined || !once.has(ta) || !once.has(tb)) continue;
    reported.add(`${ta}|${tb}`);
    const A = applied.get(ta) ?? [];
    const B = applied.get(tb) ?? [];
    if (!B.some((b) => A.some((x) => x < b) && A.some((x) => x > b)))
      out.push(`reported interleaved sections that did not interleave at the resource: ${a.message}`);
  }
  // Complete: the history's accesses of each once-granted token, when all answered ok and as many as took effect.
  // The checker lists at most so many pairs (its stats count them all): with the list cut, the definite pairs are counted instead.
  const listed = verdict.anomalies.filter((x) => x.kind === 'interleaved-sections').length;
  const counted = Number(verdict.stats?.['interleavings'] ?? listed);
  const cut = counted > listed;
  let definitePairs = 0;
  const sent = new Map<string, LockOp[]>();
  for (const op of ops)
    if (ACCESSES.has(op.f) && op.token !== undefined) (sent.get(String(op.token)) ?? sent.set(String(op.token), []).get(String(op.token))!).push(op);
  const definite = (t: string): LockOp[] | undefined => {
    const mine = (sent.get(t) ?? []).filter((op) => op.status !== 'fail');
    return mine.every((op) => op.status === 'ok') && mine.length === (applied.get(t) ?? []).length ? mine : undefined;
  };
  const tokens = [...applied.keys()];
  for (const ta of tokens) {
    const opsA = definite(ta);
    if (!opsA || opsA.length < 2) continue;
    const A = applied.get(ta)!;
    for (const tb of tokens) {
      if (tb === ta) continue;
      const opsB = definite(tb);
      if (!opsB) continue;
      const B = applied.get(tb)!;
      const missed = B.some((b, j) => {
        const i1 = A.findLastIndex((x) => x < b);
        const i2 = A.findIndex((x) => x > b);
        if (i1 < 0 || i2 < 0) return false;
        const [a1, between, a2] = [opsA[i1]!, opsB[j]!, opsA[i2]!];
        return (a1.completeTime ?? Infinity) < between.invokeTime && (between.completeTime ?? Infinity) < a2.invokeTime;
      });
      if (!missed) continue;
      definitePairs++;
      if (!cut && !reported.has(`${ta}|${tb}`))
        out.push(
          `missed a definite interleaving: an access under token ${tb} took effect between two of token ${ta}'s, with their intervals apart in the history`,
        );
    }
  }
  if (cut && definitePairs > counted) out.push(`interleaved-sections counted ${counted} pairs, but the truth shows ${definitePairs} definite ones`);
  return { disagreements: out, definitePairs };
}
