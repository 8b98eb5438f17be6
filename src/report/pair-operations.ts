/**
 * The bars of the timeline: the lock checkers' own pairing of the history
 * (`lockOps`: each client invocation with its process's next completion, the
 * nemesis skipped), so that the picture and the verdicts agree on what an op
 * is. The report addresses ops by *line* (0-based position in the history
 * array), not by the history's `index` values, which may have gaps;
 * `lineOfIndex` maps an `index` (as anomalies name ops) to its line.
 *
 * An invocation with no completion is pending: the op may take effect at any
 * time after it was invoked, so its bar runs to the end of the history.
 */
import { lockOps } from '../../core/checkers/lock/lock-ops.js';
import type { History } from '../../core/history/op.js';

export interface OpPair {
  /** Line of the invocation. */
  inv: number;
  /** Line of the completion, -1 when pending. */
  done: number;
  process: number;
}

export interface Pairing {
  pairs: OpPair[];
  /** For each line, the pair it belongs to, or -1 (nemesis ops, unmatched lines). */
  pairOfLine: Int32Array;
}

export function pairOperations(history: History): Pairing {
  const pairOfLine = new Int32Array(history.length).fill(-1);
  const pairs = lockOps(history).map((op, i): OpPair => {
    const inv = lineOfIndex(history, op.invokeIndex);
    const done = op.completeIndex === undefined ? -1 : lineOfIndex(history, op.completeIndex);
    pairOfLine[inv] = i;
    if (done !== -1) pairOfLine[done] = i;
    return { inv, done, process: op.process };
  });
  return { pairs, pairOfLine };
}

/** The line of the op with the history `index`, or -1; indexes strictly increase, so binary search. */
export function lineOfIndex(history: History, index: number): number {
  let lo = 0;
  let hi = history.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = history[mid]!.index;
    if (at === index) return mid;
    if (at < index) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
