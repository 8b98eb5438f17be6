/**
 * The real checkers' verdicts held against what a simulated run knows
 * happened (sim-truth.ts). Returns the disagreements, each a sentence; none
 * means the checkers reported exactly what they can know:
 *
 *   stale writes, sound      every stale write reported was applied while its
 *                            writer's lock had passed on to another grant;
 *   stale writes, complete   every such write the history shows definitely
 *                            (acknowledged; the later acquire began after the
 *                            writer's acquire completed and completed before
 *                            the write began; under fence-claim, an access of
 *                            the later holder's raised the fence and completed
 *                            before the write began) is reported;
 *   lost updates, exact      with no indeterminate write, the shortfall the
 *                            checker computes (acknowledged − final) is the
 *                            sum of the increments each applied write destroyed;
 *   lost updates, sound      an invalid verdict has a write that destroyed one,
 *                            and a valid one (all writes definite) has none;
 *   jobs, sound              a job counted done twice had two of its done
 *                            records applied at the resource;
 *   jobs, exact              with no indeterminate run, the jobs counted done
 *                            twice are the jobs the resource recorded twice
 *                            (an indeterminate record may have landed, so then
 *                            only the bound holds);
 *
 * and, for every workload (mutex included), the lock checkers against the
 * service's grants, sound and complete (compare-lock-truth.ts), and
 * interleaved sections against the accesses that took effect
 * (compare-interleavings.ts).
 */
import { historyEnd, lockOps, type LockOp } from '../../core/checkers/lock/lock-ops.js';
import { analyseRun } from '../../core/analyse/analyse-run.js';
import type { SimulatedRun } from './simulate-run.js';
import { compareLockTruth, passedWithoutRelease } from './compare-lock-truth.js';
import { tokenKindOf } from '../../core/vocabulary.js';
import { interleavingDisagreements } from './compare-interleavings.js';
import type { CheckerVerdict } from '../../core/checkers/lock/verdict.js';

export interface TruthComparison {
  disagreements: string[];
  /** Figures for the suite's summary line. */
  staleReported: number;
  staleTrue: number;
  lostTrue: number;
  /** Grants the lock passed on from without a release: the service's own double holds. */
  doubleHoldsTrue: number;
  /** Double holds the mutual-exclusion checker reported. */
  doubleHoldsReported: number;
  /** Of the truth's double holds, the pairs the history shows definitely (each one must be reported: compare-lock-truth.ts). */
  doubleHoldsVisible: number;
  /** Definite interleavings of once-granted sections the truth showed (compare-interleavings.ts). */
  interleavingsTrue: number;
  /** Accesses the resource refused (a fence, a mark, a version: the protection acting). */
  refusals: number;
  /** jobs: the jobs whose done record the resource applied twice or more. */
  duplicateJobsTrue: number;
  valid: boolean | 'unknown';
}

const key = (token: unknown, value: unknown): string => `${String(token)}|${String(value)}`;

export function compareWithTruth(run: SimulatedRun): TruthComparison {
  const o = run.plan.options;
  // A clock standing still: the searches' deadlines never pass, so the verdicts are the plan's alone, not the machine's load's.
  const checked = analyseRun(run.history, o, undefined, () => 0);
  const out: string[] = [];
  const ops = lockOps(run.history);
  const okWrites = new Map<string, LockOp>();
  for (const op of ops) if (op.f === 'write' && op.status === 'ok') okWrites.set(key(op.token, op.value), op);
  const byIndex = new Map<number, LockOp>();
  for (const op of ops) {
    byIndex.set(op.invokeIndex, op);
    if (op.completeIndex !== undefined) byIndex.set(op.completeIndex, op);
  }
  const truthStale = new Map(run.truth.writes.filter((w) => w.stale).map((w) => [key(w.token, w.value), w]));

  // Stale writes: sound.
  const stale = checked.verdicts.find((v) => v.checker === 'stale-writes');
  const reported = new Set<string>();
  for (const a of stale?.anomalies.filter((x) => x.kind === 'stale-write') ?? []) {
    const write = a.opIndexes.map((i) => byIndex.get(i)).find((op) => op?.f === 'write' && op.status === 'ok');
    if (write === undefined) {
      out.push(`stale-write anomaly names no acknowledged write: ${a.message}`);
      continue;
    }
    const k = key(write.token, write.value);
    reported.add(k);
    if (!truthStale.has(k)) out.push(`reported a stale write that was not stale: ${a.message}`);
  }
  // Stale writes: complete where the history shows it definitely.
  for (const [k, w] of truthStale) {
    const write = okWrites.get(k);
    if (write === undefined || reported.has(k)) continue;
    // The writer's grant is its process's last ok acquire before the write, not the first acquire told that token:
    // a Redis killed without persistence starts its INCR counter again, and gives a token twice. The later grant
    // is named by its token alone, so a token given twice does not name it: the history does not show it definitely.
    const mine = ops.findLast(
      (op) => op.f === 'acquire' && op.status === 'ok' && op.process === write.process && op.token === w.token && op.startTime < write.startTime,
    );
    const told = ops.filter((op) => op.f === 'acquire' && op.status === 'ok' && op.token === w.supersededBy);
    const later = told.length === 1 ? told[0] : undefined;
    if (mine?.completeTime === undefined || later?.completeTime === undefined) continue;
    // Under fence-claim the later grant counts once an access of its raised the fence, which the history shows
    // definitely when that access completed ok before the write began (stale-writes.ts).
    const claimedBefore =
      o.resource !== 'fence-claim' ||
      ops.some(
        (op) =>
          op.process === later.process &&
          op.token === later.token &&
          (op.f === 'read' || op.f === 'write') &&
          op.status === 'ok' &&
          op.completeTime !== undefined &&
          op.completeTime < write.startTime,
      );
    if (later.startTime > mine.completeTime && later.completeTime < write.startTime && claimedBefore) {
      out.push(`missed a definite stale write: ${k} (token ${String(w.token)} superseded by ${String(w.supersededBy)}, applied at ${w.atMs.toFixed(1)} ms)`);
    }
  }

  // Lost updates.
  const lostTrue = run.truth.writes.reduce((sum, w) => sum + w.lostIncrements, 0);
  const lost = checked.verdicts.find((v) => v.checker === 'lost-updates');
  if (lost !== undefined && o.workload === 'lock-counter') {
    const s = lost.stats ?? {};
    const acked = s['ackedWrites'] ?? NaN;
    if (s['maybeWrites'] === 0 && s['final'] !== undefined && acked - s['final'] !== lostTrue) {
      out.push(`lost-updates shortfall ${acked - s['final']} (acknowledged ${acked}, final ${s['final']}) but the truth lost ${lostTrue}`);
    }
    if (lost.valid === false && !run.truth.writes.some((w) => w.lostIncrements > 0))
      out.push(`lost-updates invalid (${lost.summary}) but no write destroyed an increment`);
    if (lost.valid === true && s['maybeWrites'] === 0 && s['final'] !== undefined && lostTrue > 0)
      out.push(`lost-updates valid but the truth lost ${lostTrue}`);
  }

  const jobs =
    o.workload === 'jobs'
      ? compareJobs(
          checked.verdicts.find((v) => v.checker === 'jobs'),
          run.truth,
        )
      : { disagreements: [], duplicated: 0 };
  out.push(...jobs.disagreements);

  const lock = compareLockTruth(checked, ops, historyEnd(run.history), run.truth, tokenKindOf(o.backend) === 'monotonic');
  out.push(...lock.disagreements);
  // Transactions' writes take effect at COMMIT, which the truth does not count as an access; without a lock there are no tokens.
  const interleaved =
    o.resource !== 'for-update' && o.backend !== 'none'
      ? interleavingDisagreements(
          checked.verdicts.find((v) => v.checker === 'interleaved-sections'),
          ops,
          run.truth,
        )
      : { disagreements: [], definitePairs: 0 };
  out.push(...interleaved.disagreements);
  const doubleHoldsReported = checked.verdicts.find((v) => v.checker === 'mutual-exclusion')?.stats?.['doubleHolds'] ?? 0;
  const refusals = ops.filter((op) => op.status === 'fail' && run.history[op.completeIndex ?? -1]?.['outcome'] === 'rejected').length;
  return {
    disagreements: out,
    interleavingsTrue: interleaved.definitePairs,
    staleReported: reported.size,
    staleTrue: truthStale.size,
    lostTrue,
    doubleHoldsTrue: passedWithoutRelease(run.truth).length,
    doubleHoldsReported,
    doubleHoldsVisible: lock.visibleDoubleHolds,
    refusals,
    duplicateJobsTrue: jobs.duplicated,
    valid: checked.valid,
  };
}

/** The jobs checker's duplicates against the done records the resource applied (the module comment's jobs claims). */
function compareJobs(v: CheckerVerdict | undefined, truth: SimulatedRun['truth']): { disagreements: string[]; duplicated: number } {
  const applied = new Map<string, number>();
  for (const w of truth.writes) applied.set(w.value, (applied.get(w.value) ?? 0) + 1);
  const duplicated = [...applied.values()].filter((n) => n > 1).length;
  if (v === undefined) return { disagreements: ['the jobs workload ran without its checker'], duplicated };
  const counted = v.stats?.['duplicates'] ?? NaN;
  const maybe = v.stats?.['maybeRuns'] ?? NaN;
  const out: string[] = [];
  if (!(counted <= duplicated)) out.push(`jobs counts ${counted} job(s) done twice (${v.summary}), but the resource recorded only ${duplicated} twice`);
  if (maybe === 0 && counted < duplicated)
    out.push(`jobs counts ${counted} job(s) done twice with no indeterminate run (${v.summary}), but the resource recorded ${duplicated} twice`);
  return { disagreements: out, duplicated };
}
