/**
 * The bars of the timeline: each client invocation paired with its process's
 * next completion. Positions are *lines* (0-based positions in the history
 * array), not the history's `index` values, which may have gaps; `lineOfIndex`
 * maps an `index` (as anomalies name ops) to its line.
 *
 * An invocation with no completion is pending: the op may take effect at any
 * time after it was invoked, so its bar runs to the end of the history. The
 * nemesis is not paired here; its ops become fault windows (fault-windows.ts).
 */
import type { History } from '../history/op.js';

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
  const pairs: OpPair[] = [];
  const pairOfLine = new Int32Array(history.length).fill(-1);
  const open = new Map<number, number>();
  history.forEach((op, line) => {
    if (op.process === 'nemesis') return;
    if (op.type === 'invoke') {
      open.set(op.process, pairs.length);
      pairOfLine[line] = pairs.length;
      pairs.push({ inv: line, done: -1, process: op.process });
      return;
    }
    const p = open.get(op.process);
    if (p === undefined) return; // the validator rejects this; a report of an unvalidated history skips it
    open.delete(op.process);
    pairs[p]!.done = line;
    pairOfLine[line] = p;
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
