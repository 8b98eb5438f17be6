/**
 * The lock checkers (every workload, mutex included) held against what the
 * simulated service knows it did (sim-truth.ts). Each claim is one a checker
 * can be held to, and each can fail:
 *
 *   mutual exclusion, sound   a definite double hold names two grants, and
 *                             the earlier one passed on without its release
 *                             taking effect first (a holder that let go
 *                             before the next grant cannot overlap it);
 *   mutual exclusion, complete
 *                             a grant the lock passed on from without its
 *                             release, whose holder and a later grant's
 *                             holder both were told ok and both believed
 *                             they held it at once in the history (each
 *                             from its acquire's ok to when it began its
 *                             release or next acquire, its info op's answer
 *                             when it retired there, else the history's
 *                             end: docs/history.md), is reported. Not seen,
 *                             so not required: a grant whose acquire was
 *                             never answered ok (indeterminate: its client
 *                             was never told, and by rule 4 never acted
 *                             under it), a grant without a token of its own
 *                             (none taken, or one a reset counter handed out
 *                             twice: the history cannot name it), and a
 *                             double grant no two clients believed in at
 *                             once (the holder had begun its release, the
 *                             release still in flight when the lease ran
 *                             out; what came of it is the stale-write and
 *                             interleaving comparisons' to judge);
 *   grant tokens, sound       a reported regression is one in the service's
 *                             grant order (a later grant, a token not above);
 *   grant tokens, complete    a regression between grants whose acquires the
 *                             history orders (the later invoked after the
 *                             earlier completed) is reported;
 *   mutex linearizable, sound an invalid verdict needs a grant that passed on
 *                             without an ok release of its holder before the
 *                             next grant (the service's own order linearizes
 *                             a history where every grant follows its
 *                             predecessor's acknowledged release; a session
 *                             closed after a failed release lets go at the
 *                             service, but the model rightly still sees the
 *                             lock held).
 */
import { compareTokens, type LockOp } from '../../core/checkers/lock/lock-ops.js';
import type { LockCheckResult } from '../../core/checkers/lock/verdict.js';
import type { SimGrant, SimTruth } from './sim-truth.js';
import type { Token } from '../../runtime/clients/lock-client.js';

/** Grants the lock passed on from without their release (leases ran out, a node's data was lost): the truth's double holds. */
export function passedWithoutRelease(truth: SimTruth): SimGrant[] {
  return truth.grants.filter((g) => {
    const next = truth.successorOf(g);
    return next !== undefined && !(g.releasedAtMs !== undefined && g.releasedAtMs <= next.atMs);
  });
}

/** The one grant with this token (undefined when none or several: a reset counter reuses tokens). */
function onlyGrant(truth: SimTruth, token: unknown): SimGrant | undefined {
  const gs = truth.grants.filter((g) => g.token === token);
  return gs.length === 1 ? gs[0] : undefined;
}

export interface LockTruthComparison {
  disagreements: string[];
  /** Pairs of grants held at once that the history shows definitely (the completeness claim's cases). */
  visibleDoubleHolds: number;
}

/** `end`: the history's last time (ns), where a hold never let go of ends. */
export function compareLockTruth(checked: LockCheckResult, ops: readonly LockOp[], end: number, truth: SimTruth, monotonic: boolean): LockTruthComparison {
  const out: string[] = [];
  const verdict = (name: string) => checked.verdicts.find((v) => v.checker === name);
  const mutex = verdict('mutual-exclusion');
  const reported = new Set<string>();
  for (const a of mutex?.anomalies.filter((x) => x.kind === 'double-hold') ?? []) {
    const tokens = a.tokens ?? [];
    if (tokens.length !== 2) continue;
    const [g1, g2] = tokens.map((t) => onlyGrant(truth, t));
    if (g1 === undefined || g2 === undefined) {
      if (tokens.every((t) => truth.grants.every((g) => g.token !== t))) out.push(`double hold names tokens the service never granted: ${a.message}`);
      continue;
    }
    const [first, later] = g1.seq < g2.seq ? [g1, g2] : [g2, g1];
    reported.add(pairKey(first, later));
    if (first.releasedAtMs !== undefined && first.releasedAtMs <= later.atMs)
      out.push(
        `reported a double hold, but ${String(first.token)} was released at the service (${first.releasedAtMs.toFixed(1)} ms) before ${String(later.token)} was granted: ${a.message}`,
      );
  }
  const visible = visibleDoubleHolds(ops, end, truth);
  // The checker lists at most so many pairs (its stats count them all): with the list cut, the visible pairs are counted instead.
  const cut = mutex !== undefined && mutex.anomalyCount > mutex.anomalies.length;
  const counted = mutex?.stats?.['doubleHolds'] ?? 0;
  if (mutex === undefined && visible.length > 0)
    out.push(`mutual-exclusion did not run, and the truth shows ${visible.length} double hold(s) the history makes definite`);
  if (mutex !== undefined && !cut) {
    for (const v of visible) if (!reported.has(pairKey(v.first, v.later))) out.push(`missed a double hold: ${v.description}`);
  }
  if (cut && visible.length > counted)
    out.push(`mutual-exclusion counted ${counted} double holds, but the truth shows ${visible.length} the history makes definite`);
  if (monotonic) out.push(...compareGrantTokens(checked, ops, truth));
  const lin = verdict('mutex-linearizable');
  const okReleased = new Set(ops.filter((op) => op.f === 'release' && op.status === 'ok').map((op) => op.token));
  const passedOn = passedWithoutRelease(truth).length + truth.grants.filter((g) => truth.successorOf(g) !== undefined && !okReleased.has(g.token)).length;
  if (lin?.valid === false && passedOn === 0)
    out.push(`mutex-linearizable invalid (${lin.summary}) but every grant followed its predecessor's acknowledged release`);
  return { disagreements: out, visibleDoubleHolds: visible.length };
}

const pairKey = (first: SimGrant, later: SimGrant): string => `${first.seq}|${later.seq}`;

interface VisibleDoubleHold {
  first: SimGrant;
  later: SimGrant;
  description: string;
}

/**
 * Every pair of grants (earlier, later) where the lock passed on from the earlier without its release taking
 * effect, and the history shows both holders told ok and believing they held it at once (the module comment's
 * complete claim; the cases it leaves out are named there).
 */
function visibleDoubleHolds(ops: readonly LockOp[], end: number, truth: SimTruth): VisibleDoubleHold[] {
  const grantsOf = groupBy(
    truth.grants.filter((g) => g.token !== undefined),
    (g) => g.token!,
  );
  const toldOf = groupBy(
    ops.filter((op) => op.f === 'acquire' && op.status === 'ok' && op.token !== undefined),
    (op) => op.token!,
  );
  const byProcess = groupBy(ops, (op) => op.process);
  // A grant and the one ok acquire that told its holder, when its token names it alone on both sides.
  const held = new Map<SimGrant, { process: number; from: number; to: number }>();
  for (const [token, gs] of grantsOf) {
    const told = toldOf.get(token) ?? [];
    if (gs.length === 1 && told.length === 1) held.set(gs[0]!, { process: told[0]!.process, ...belief(told[0]!, byProcess.get(told[0]!.process)!, end) });
  }
  const out: VisibleDoubleHold[] = [];
  for (const first of truth.grants) {
    const a = held.get(first);
    if (a === undefined) continue;
    // Later grants while the first was still not released at the service (once released, it was before every later one).
    for (
      let later = truth.successorOf(first);
      later !== undefined && !(first.releasedAtMs !== undefined && first.releasedAtMs <= later.atMs);
      later = truth.successorOf(later)
    ) {
      const b = held.get(later);
      if (b === undefined || b.process === a.process) continue;
      const from = Math.max(a.from, b.from);
      const to = Math.min(a.to, b.to);
      if (from >= to) continue;
      const description = `p${a.process}, told it holds ${String(first.token)} (granted at ${first.atMs.toFixed(1)} ms, not released before the next grant), and p${b.process}, told it holds ${String(later.token)} (granted at ${later.atMs.toFixed(1)} ms), both believed they held it from ${(from / 1e6).toFixed(1)} to ${(to / 1e6).toFixed(1)} ms`;
      out.push({ first, later, description });
    }
  }
  return out;
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}

/**
 * When the client that got ok acquire `a` (`own`: its process's ops, in order) believed it held the lock (ns), by the history's rules alone
 * (docs/history.md): from the ok's arrival until it began its next release or acquire (`startTime`: a request
 * that waited in a paused client's pipe was not begun), or, if it never did, until its last op's info answer
 * (rule 4: it retired there) or else the end of the history (it still held it).
 */
function belief(a: LockOp, own: readonly LockOp[], end: number): { from: number; to: number } {
  const from = a.completeTime!;
  const after = own.slice(own.indexOf(a) + 1);
  const letGo = after.find((op) => op.f === 'release' || op.f === 'acquire');
  if (letGo !== undefined) return { from, to: letGo.startTime };
  const last = after[after.length - 1];
  return { from, to: last?.status === 'info' ? (last.completeTime ?? end) : end };
}

function compareGrantTokens(checked: LockCheckResult, ops: readonly LockOp[], truth: SimTruth): string[] {
  const out: string[] = [];
  const v = checked.verdicts.find((x) => x.checker === 'grant-tokens');
  if (v === undefined) return out;
  const numbered = truth.grants.filter((g) => typeof g.token === 'number');
  const regressed = numbered.some((g, i) => numbered.slice(i + 1).some((h) => (compareTokens(h.token!, g.token!) ?? 1) <= 0));
  if ((v.stats?.['regressions'] ?? 0) > 0 && !regressed)
    out.push(`grant-tokens reports a regression (${v.summary}) but the service's tokens only grew in grant order`);
  // Complete: two ordered ok acquires whose grants regressed at the service.
  const oks = ops.filter((o) => o.f === 'acquire' && o.status === 'ok' && o.completeTime !== undefined && o.token !== undefined);
  for (const a of oks) {
    const ga = onlyGrant(truth, a.token);
    for (const b of oks) {
      const gb = onlyGrant(truth, b.token);
      if (ga === undefined || gb === undefined || b.invokeTime <= a.completeTime!) continue;
      if (gb.seq > ga.seq && (compareTokens(b.token!, a.token!) ?? 1) <= 0 && v.valid !== false)
        out.push(`missed a token regression: ${String(a.token)} then ${String(b.token)}, granted in that order`);
    }
  }
  return out;
}
