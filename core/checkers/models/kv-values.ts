/**
 * How the kv model reads its operations' values (Jepsen's independent-key tuples, `[key, value]`): one place for
 * the model's step and lookahead (kv.ts) and its guess at an order (kv-order-hint.ts), so the guess reads a value
 * exactly as the step it is proven with does.
 */
import type { Value } from '../../history/op.js';
import type { Operation } from '../operation.js';

/** The value of a `[key, value]` tuple; null for anything else. */
export function kvValueOf(v: Value): Value {
  return Array.isArray(v) && v.length === 2 ? v[1]! : null;
}

/** What a put or append writes: its value as a string, a missing one as "". */
export function kvWrittenValue(op: Operation): string {
  return String(kvValueOf(op.input) ?? '');
}
