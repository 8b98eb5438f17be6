/**
 * The lock checkers (every workload, mutex included) held against what the
 * simulated service knows it did (sim-truth.ts). Each claim is one a checker
 * can be held to, and each can fail:
 *
 *   mutual exclusion, sound   a definite double hold names two grants, and
 *                             the earlier one passed on without its release
 *                             taking effect first (a holder that let go
 *                             before the next grant cannot overlap it);
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
import { lockOps, compareTokens, type LockOp } from '../../core/checkers/lock/lock-ops.js';
import type { LockCheckResult } from '../../core/checkers/lock/verdict.js';
import type { SimGrant, SimTruth } from './sim-truth.js';

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

export function compareLockTruth(checked: LockCheckResult, ops: readonly LockOp[], truth: SimTruth, monotonic: boolean): string[] {
  const out: string[] = [];
  const verdict = (name: string) => checked.verdicts.find((v) => v.checker === name);
  for (const a of verdict('mutual-exclusion')?.anomalies.filter((x) => x.kind === 'double-hold') ?? []) {
    const tokens = a.tokens ?? [];
    if (tokens.length !== 2) continue;
    const [g1, g2] = tokens.map((t) => onlyGrant(truth, t));
    if (g1 === undefined || g2 === undefined) {
      if (tokens.every((t) => truth.grants.every((g) => g.token !== t))) out.push(`double hold names tokens the service never granted: ${a.message}`);
      continue;
    }
    const [first, later] = g1.seq < g2.seq ? [g1, g2] : [g2, g1];
    if (first.releasedAtMs !== undefined && first.releasedAtMs <= later.atMs) out.push(`reported a double hold, but ${String(first.token)} was released at the service (${first.releasedAtMs.toFixed(1)} ms) before ${String(later.token)} was granted: ${a.message}`);
  }
  if (monotonic) out.push(...compareGrantTokens(checked, ops, truth));
  const lin = verdict('mutex-linearizable');
  const okReleased = new Set(ops.filter((op) => op.f === 'release' && op.status === 'ok').map((op) => op.token));
  const passedOn = passedWithoutRelease(truth).length + truth.grants.filter((g) => truth.successorOf(g) !== undefined && !okReleased.has(g.token)).length;
  if (lin?.valid === false && passedOn === 0) out.push(`mutex-linearizable invalid (${lin.summary}) but every grant followed its predecessor's acknowledged release`);
  return out;
}

function compareGrantTokens(checked: LockCheckResult, ops: readonly LockOp[], truth: SimTruth): string[] {
  const out: string[] = [];
  const v = checked.verdicts.find((x) => x.checker === 'grant-tokens');
  if (v === undefined) return out;
  const numbered = truth.grants.filter((g) => typeof g.token === 'number');
  const regressed = numbered.some((g, i) => numbered.slice(i + 1).some((h) => (compareTokens(h.token!, g.token!) ?? 1) <= 0));
  if ((v.stats?.['regressions'] ?? 0) > 0 && !regressed) out.push(`grant-tokens reports a regression (${v.summary}) but the service's tokens only grew in grant order`);
  // Complete: two ordered ok acquires whose grants regressed at the service.
  const oks = ops.filter((o) => o.f === 'acquire' && o.status === 'ok' && o.completeTime !== undefined && o.token !== undefined);
  for (const a of oks) {
    const ga = onlyGrant(truth, a.token);
    for (const b of oks) {
      const gb = onlyGrant(truth, b.token);
      if (ga === undefined || gb === undefined || b.invokeTime <= a.completeTime!) continue;
      if (gb.seq > ga.seq && (compareTokens(b.token!, a.token!) ?? 1) <= 0 && v.valid !== false) out.push(`missed a token regression: ${String(a.token)} then ${String(b.token)}, granted in that order`);
    }
  }
  return out;
}
