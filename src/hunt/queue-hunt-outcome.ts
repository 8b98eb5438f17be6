/**
 * A queue hunt's tries read as one answer (pure), as hunt-outcome.ts reads a
 * lock hunt's: the find (the most reproducible violation, then the one with
 * fewest windows, then the earliest) with its rate, failing run and replay;
 * or the weight of the silence (core/checkers/lock/weight.ts: only tries
 * whose faults struck a job's holder and made the queue hand a job out again
 * count); or that nothing dangerous was tested. Exit codes as `hunt`'s.
 */
import { EXIT } from '../../core/errors.js';
import type { Outcome } from '../../core/checkers/lock/evidence.js';
import { formatWeight } from '../../core/checkers/lock/weight.js';
import type { QueueFailureSign } from '../../core/queue/queue-failure-signs.js';
import { describeQueueTry, type QueueTryChoices } from '../../core/queue/queue-hunt-space.js';
import { formatDuration } from '../compare/format-units.js';
import { rateLines, reproductionRank, type Confirmation } from './confirm-find.js';
import { EXIT_UNTESTED } from './hunt-outcome.js';

/** One try of a queue hunt as it is kept. */
export interface QueueTryRecord {
  choices: QueueTryChoices;
  /** Fault windows the try's plan held. */
  windows: number;
  runDir: string | null;
  replay: string | null;
  outcome: Outcome | 'error';
  /** How it failed (a violation's signs and counts), null when it did not. */
  signs: QueueFailureSign[];
  failure: string | null;
  /** Jobs handed out twice or more: the queue's lock failing, which a tested try needs. */
  redelivered: number;
  reproduced?: Confirmation;
  error: string | null;
  endedAtMs: number;
}

export interface QueueHuntOutcome {
  exitCode: number;
  found: { record: QueueTryRecord; tryNumber: number; afterMs: number } | null;
  tested: number;
  lines: string[];
}

export function queueHuntOutcome(records: readonly QueueTryRecord[], interrupted: boolean): QueueHuntOutcome {
  const violating = records.filter((r) => r.outcome === 'unsafe');
  const tested = records.filter((r) => r.outcome === 'safe');
  const head = `${records.length} ${records.length === 1 ? 'try' : 'tries'}${interrupted ? ' (interrupted)' : ''}`;
  const best = bestQueueFind(violating);
  if (best !== undefined) {
    const first = violating[0]!;
    // A try's number as the log said it; runs-to-detection counts the tries that ended before (lanes end out of order).
    const tryNumber = best.choices.index + 1;
    const lines = [
      `VIOLATION: ${violating.length} of ${head} violated; the first on try ${first.choices.index + 1} after ${formatDuration(first.endedAtMs)} (runs-to-detection ${records.indexOf(first) + 1}, time-to-detection ${formatDuration(first.endedAtMs)})`,
      ...(best !== first ? [`  the find: try ${tryNumber}, the most reproducible of them`] : []),
      `  ${best.failure} (${describeQueueTry(best.choices)})`,
      ...rateLines(best.reproduced, 'its failing run and replay are kept below'),
      `run: ${best.runDir}`,
      `replay: ${best.replay}`,
      `shrink: fencecheck shrink ${best.runDir}`,
    ];
    return { exitCode: EXIT.invalid, found: { record: best, tryNumber, afterMs: best.endedAtMs }, tested: tested.length, lines };
  }
  if (tested.length > 0) {
    const moments = tested.reduce((t, r) => t + r.redelivered, 0);
    return {
      exitCode: EXIT.valid,
      found: null,
      tested: tested.length,
      lines: [`no violation: ${head}, ${tested.length} of them tested (a job handed out again)`, formatWeight(tested.length, moments)],
    };
  }
  const failed = records.filter((r) => r.outcome === 'unknown' || r.outcome === 'error').length;
  return {
    exitCode: failed > 0 ? EXIT.unknown : EXIT_UNTESTED,
    found: null,
    tested: 0,
    lines: [
      `UNTESTED: ${head}, none put the queue to the test (no window struck a worker holding a job, or no job was handed out again)${failed > 0 ? `; ${failed} unknown or failed` : ''}`,
    ],
  };
}

/** The most reproducible violation (unmeasured below any measured), then the fewest windows, then the earliest. */
export function bestQueueFind(violating: readonly QueueTryRecord[]): QueueTryRecord | undefined {
  const rate = (r: QueueTryRecord): number => reproductionRank(r.reproduced);
  let best: QueueTryRecord | undefined;
  for (const r of violating) if (best === undefined || rate(r) > rate(best) || (rate(r) === rate(best) && r.windows < best.windows)) best = r;
  return best;
}

/** `hunt: try 4 done · 2 tested · 1 violation (first on try 3) · 1m10s elapsed`. */
export function queueHuntProgress(records: readonly QueueTryRecord[], elapsedMs: number, budget: { ms?: number; runs?: number }): string {
  const violations = records.filter((r) => r.outcome === 'unsafe').length;
  const tested = records.filter((r) => r.outcome === 'safe' || r.outcome === 'unsafe').length;
  const total = budget.runs !== undefined ? `/${budget.runs}` : '';
  const found =
    violations > 0
      ? `${violations} violation${violations === 1 ? '' : 's'} (first on try ${records.findIndex((r) => r.outcome === 'unsafe') + 1})`
      : 'no violation yet';
  const left = budget.ms !== undefined ? ` · ${formatDuration(Math.max(0, budget.ms - elapsedMs))} left` : '';
  return `hunt: try ${records.length}${total} done · ${tested} tested · ${found} · ${formatDuration(elapsedMs)} elapsed${left}`;
}
