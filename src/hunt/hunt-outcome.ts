/**
 * A hunt's tries read as one answer (pure): the violation found (on which
 * try, after how long), or the weight of the silence (core/checkers/lock/weight.ts),
 * or that nothing dangerous was ever tested; and the exit code of each.
 *
 *   1  a violation (as `run`: invalid)
 *   0  no violation, and tries that put the protection to the test
 *   3  no violation, but no try tested anything (untested)
 *   2  no violation and no tested try, but tries that ended unknown or failed
 */
import { formatWeight } from '../../core/checkers/lock/weight.js';
import type { Outcome } from '../../core/checkers/lock/evidence.js';
import { formatDuration } from '../compare/format-units.js';
import { EXIT } from '../../core/errors.js';
import { dangerousMoments, describeNearMiss, nearMissScore, type NearMiss, type WantedSign } from './near-miss.js';
import type { TryPlan } from './search.js';
import type { DataVerdicts } from './hunt-verdict.js';
import { rateLines, reproductionRank, type Confirmation } from './confirm-find.js';

/**
 * The exit code of "valid, but nothing dangerous was tested". Another change
 * is giving `run` the same code; once EXIT has it, this is EXIT's.
 */
export const EXIT_UNTESTED = 3;

/** One try as the hunt keeps it. */
export interface TryRecord {
  plan: TryPlan;
  runDir: string | null;
  replay: string | null;
  /** The run's outcome; `error` when the tool failed; `other-violation` when it broke the data without the sign the hunt was asked to find (`--want`). */
  outcome: Outcome | 'error' | 'other-violation';
  miss: NearMiss | null;
  /** The data checkers that broke and held, where the try's results were read. */
  data?: DataVerdicts;
  /** A violating try's re-runs (confirm-find.ts): how often its plan fails again. */
  reproduced?: Confirmation;
  error: string | null;
  /** ms since the hunt started, when the try ended. */
  endedAtMs: number;
}

export interface HuntOutcome {
  exitCode: number;
  /**
   * The find: of the violations, the most reproducible, then the simplest (fewest fault windows), then the
   * earliest; its try number (1-based) and when it was found. `first`: the first violation, for runs- and
   * time-to-detection.
   */
  found: { record: TryRecord; tryNumber: number; afterMs: number; first: { tryNumber: number; afterMs: number } } | null;
  violations: number;
  tested: number;
  moments: number;
  /** The try that came closest without a violation. */
  best: TryRecord | null;
  lines: string[];
}

export function huntOutcome(records: readonly TryRecord[], interrupted: boolean, want?: WantedSign): HuntOutcome {
  const violating = records.filter((r) => r.outcome === 'unsafe');
  const others = records.filter((r) => r.outcome === 'other-violation');
  const tested = records.filter((r) => r.outcome === 'safe');
  const moments = tested.reduce((t, r) => t + (r.miss ? dangerousMoments(r.miss) : 0), 0);
  const nearest = bestNearMiss(records);
  const first = violating[0];
  const best = bestFind(violating);
  const found =
    first && best
      ? {
          record: best,
          tryNumber: records.indexOf(best) + 1,
          afterMs: best.endedAtMs,
          first: { tryNumber: records.indexOf(first) + 1, afterMs: first.endedAtMs },
        }
      : null;
  const head = `${records.length} ${records.length === 1 ? 'try' : 'tries'}${interrupted ? ' (interrupted)' : ''}`;
  const lines: string[] = [];
  let exitCode: number;
  if (found) {
    exitCode = EXIT.invalid;
    lines.push(
      `VIOLATION: ${violating.length} of ${head} violated${want ? ` with a ${want}` : ''}${others.length > 0 ? ` (${others.length} more broke the data another way)` : ''}; the first on try ${first!.plan.index + 1} after ${formatDuration(found.first.afterMs)} (runs-to-detection ${found.first.tryNumber}, time-to-detection ${formatDuration(found.first.afterMs)})`,
    );
    const f = found.record;
    // Try numbers as the log said them (a plan's number); with several lanes tries end out of order.
    if (found.record !== first) lines.push(`  the find: try ${found.record.plan.index + 1}, the most reproducible of them`);
    lines.push(
      `  ${describeNearMiss(f.miss!)}`,
      ...dataLine(f.data),
      ...rateLines(f.reproduced, 'its failing run and replay are kept below; hunt longer (--budget) for a more reproducible one'),
      `run: ${f.runDir}`,
      `replay: ${f.replay}`,
      `shrink: fencecheck shrink ${f.runDir}`,
    );
  } else if (others.length > 0) {
    // The data broke, only not the way asked for: still a violation (exit 1), said as such, and not shrunk.
    const other = others[0]!;
    exitCode = EXIT.invalid;
    lines.push(
      `VIOLATION of another kind: ${others.length} of ${head} broke the data without a ${want ?? 'wanted sign'} (--want); the first on try ${other.plan.index + 1}`,
    );
    lines.push(
      `  ${describeNearMiss(other.miss!)}`,
      `run: ${other.runDir}`,
      `replay: ${other.replay}`,
      `the failure asked for was not found: no try showed a ${want ?? 'wanted sign'}`,
    );
  } else if (tested.length > 0) {
    exitCode = EXIT.valid;
    lines.push(`no violation: ${head}, ${tested.length} of them tested`, formatWeight(tested.length, moments));
  } else {
    const failed = records.filter((r) => r.outcome === 'unknown' || r.outcome === 'error').length;
    exitCode = failed > 0 ? EXIT.unknown : EXIT_UNTESTED;
    lines.push(
      `UNTESTED: ${head}, none put the protection to the test (no fault struck, or no double hold and no refusal)${failed > 0 ? `; ${failed} unknown or failed` : ''}`,
    );
  }
  if (nearest && !found) lines.push(`best near miss: try ${nearest.plan.index + 1}: ${describeNearMiss(nearest.miss!)} (${nearest.runDir})`);
  return { exitCode, found, violations: violating.length, tested: tested.length, moments, best: nearest, lines };
}

/** The most reproducible violation (its re-runs' rate; unmeasured counts as unknown, below any measured), then the fewest windows, then the earliest. */
export function bestFind(violating: readonly TryRecord[]): TryRecord | undefined {
  const rate = (r: TryRecord): number => reproductionRank(r.reproduced);
  let best: TryRecord | undefined;
  for (const r of violating) {
    if (best === undefined || rate(r) > rate(best) || (rate(r) === rate(best) && r.plan.windows.length < best.plan.windows.length)) best = r;
  }
  return best;
}

/**
 * Which data checkers broke it, and which held: a stale write a fence let
 * through leaves the counter whole (lost-updates valid), which a reader of
 * `VIOLATION` would otherwise take for lost increments.
 */
function dataLine(data: DataVerdicts | undefined): string[] {
  if (data === undefined || data.broken.length === 0) return [];
  const only = data.held.length > 0 ? ' only' : '';
  const held = data.held.length > 0 ? `; ${data.held.join(', ')} held` : '';
  const counter = data.held.includes('lost-updates') ? ' (the counter survived: every acknowledged increment is in it)' : '';
  return [`  the data: broken by ${data.broken.join(', ')}${only}${held}${counter}`];
}

export function bestNearMiss(records: readonly TryRecord[]): TryRecord | null {
  let best: TryRecord | null = null;
  for (const r of records)
    if (
      r.miss &&
      r.outcome !== 'unsafe' &&
      r.outcome !== 'other-violation' &&
      nearMissScore(r.miss) > 0 &&
      (best === null || nearMissScore(r.miss) > nearMissScore(best.miss!))
    )
      best = r;
  return best;
}

/**
 * `hunt: try 4 · 2 tested · best: 3 double holds (try 2) · 1m10s elapsed · ETA 8m50s`. Tested counts every
 * try that put the protection to the test: the safe ones and the violations. `stopped`: why the hunt ends
 * here, said in place of an estimate of what is left.
 */
export function huntProgress(records: readonly TryRecord[], elapsedMs: number, budget: { ms?: number; runs?: number }, stopped?: string): string {
  const done = records.length;
  const mean = done === 0 ? undefined : elapsedMs / done;
  const leftMs = budget.ms !== undefined ? Math.max(0, budget.ms - elapsedMs) : mean === undefined ? undefined : Math.max(0, budget.runs! - done) * mean;
  const best = bestNearMiss(records);
  const violations = records.filter((r) => r.outcome === 'unsafe').length;
  const others = records.filter((r) => r.outcome === 'other-violation').length;
  const otherText = others > 0 ? `${others} violation${others === 1 ? '' : 's'} of another kind · ` : '';
  const bestText =
    violations > 0
      ? `${violations} violation${violations === 1 ? '' : 's'} (first on try ${records.find((r) => r.outcome === 'unsafe')!.plan.index + 1})`
      : `${otherText}${best ? `best: ${describeNearMiss(best.miss!)} (try ${best.plan.index + 1})` : 'no near miss yet'}`;
  const total = budget.runs !== undefined ? `/${budget.runs}` : '';
  const tested = records.filter((r) => r.outcome === 'safe' || r.outcome === 'unsafe' || r.outcome === 'other-violation').length;
  const rest = stopped !== undefined ? stopped : `ETA ${leftMs === undefined ? '?' : formatDuration(leftMs)}`;
  return `hunt: try ${done}${total} done · ${tested} tested · ${bestText} · ${formatDuration(elapsedMs)} elapsed · ${rest}`;
}
