/**
 * What a lock hunt's and a queue hunt's loops share: when a try ends the hunt
 * (a find, `--until-ruled-out` reached, tools failing in a row), said in its
 * log line; and the lanes' searchers run side by side until all have ended.
 */
import { formatPercent } from '../../core/checkers/lock/weight.js';
import { ruledOut, testedClean } from './until-ruled-out.js';

/** Tool failures in a row after which a hunt gives up (the cluster will not start, say). */
export const MAX_FAILURES_IN_A_ROW = 3;

/** Whether the hunt ends after this try, logging why: `found` (the caller's rule), the ruled-out share reached, tools failing. */
export function endsTheHunt(
  found: boolean,
  records: readonly { outcome: string }[],
  untilRuledOut: number | undefined,
  failures: number,
  lastError: string | null,
  log: (line: string) => void,
): boolean {
  if (found) return true;
  if (untilRuledOut !== undefined && ruledOut(records, untilRuledOut)) {
    log(
      `hunt: ${testedClean(records)} clean tested tries rule out any failure that shows in at least ${formatPercent(untilRuledOut)} of tries; stopping (--until-ruled-out)`,
    );
    return true;
  }
  if (failures >= MAX_FAILURES_IN_A_ROW) {
    log(`hunt: ${failures} tries in a row failed to run; stopping (last: ${lastError})`);
    return true;
  }
  return false;
}

/**
 * `count` searchers side by side, one a lane. A searcher that throws (bad input: every try would fail alike)
 * calls `end` so that no lane starts another try, and its error is rethrown once the others' tries are over.
 */
export async function runSearchers(count: number, searcher: () => Promise<void>, end: () => void): Promise<void> {
  const settled = await Promise.allSettled(
    Array.from({ length: count }, () =>
      searcher().catch((err: unknown) => {
        end();
        throw err;
      }),
    ),
  );
  for (const r of settled) if (r.status === 'rejected') throw r.reason;
}

/**
 * A hunt's progress line, said once for each state: lanes that end their tries (or their confirmations) one
 * after another would each say the same count again (seen: `try 8 done · … stopped at the violation` twice, 8 s
 * apart). A line is said when more tries are done than the last one said, or when it is the first to say the
 * hunt stopped at its violation.
 */
export class ProgressLine {
  private said = 0;
  private saidStopped = false;

  constructor(private readonly log: (line: string) => void) {}

  say(done: number, stopped: boolean, line: () => string): void {
    if (done <= this.said && (!stopped || this.saidStopped)) return;
    this.said = Math.max(this.said, done);
    this.saidStopped ||= stopped;
    this.log(line());
  }
}
