/**
 * Parts by key (P-compositionality for models whose ops each touch one key):
 * ops grouped by their key, parts in key order. One function for the model's
 * `partition` and for the threads that search one history's parts apart
 * (src/check/check-parts-threaded.ts), so a part's index is the same both ways.
 */
import type { Operation } from './operation.js';

/** The order of parts: by key, as strings (code units), so that witnesses are stable. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function partitionByKey(ops: readonly Operation[], keyOf: (op: Operation) => string): Operation[][] {
  const parts = new Map<string, Operation[]>();
  for (const op of ops) {
    const key = keyOf(op);
    let part = parts.get(key);
    if (!part) parts.set(key, (part = []));
    part.push(op);
  }
  return [...parts.entries()].sort(([a], [b]) => compareKeys(a, b)).map(([, p]) => p);
}
