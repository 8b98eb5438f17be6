/**
 * Equality and hashing of history values for models whose state is a value,
 * as EDN and JSON mean equality: maps and sets order-free, a set never equal
 * to a vector (core/history/canonical-value.ts). Both go through the same
 * canonical spelling, so equal values always hash alike. Numbers and strings
 * are the common case in registers, so they skip it.
 */
import { canonicalEquals, canonicalKey } from '../../history/canonical-value.js';
import type { Value } from '../../history/op.js';
import { stringHash } from '../string-hash.js';
import { showValue as showHistoryValue } from '../../history/show-value.js';

export function valueEquals(a: Value | undefined, b: Value | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalEquals(a, b);
}

export function valueHash(v: Value | undefined): number {
  if (v === null || v === undefined) return 0x5bd1e995;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? Math.imul(v | 0, 0x9e3779b1) ^ 0x1f : stringHash(String(v));
  if (typeof v === 'string') return stringHash(v);
  return stringHash(canonicalKey(v));
}

/** A value in a witness: nil for none, an EDN type as EDN writes it (`:a`, `1.0`), anything else as JSON. */
export function showValue(v: Value | undefined): string {
  return v === null || v === undefined ? 'nil' : showHistoryValue(v);
}
