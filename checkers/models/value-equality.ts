/**
 * Equality and hashing of JSON values for models whose state is a value.
 * Numbers and strings are the common case in registers, so they skip JSON.
 */
import type { Value } from '../../src/history/op.js';
import { stringHash } from '../linearizability/state-interner.js';

export function valueEquals(a: Value | undefined, b: Value | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

export function valueHash(v: Value | undefined): number {
  if (v === null || v === undefined) return 0x5bd1e995;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? Math.imul(v | 0, 0x9e3779b1) ^ 0x1f : stringHash(String(v));
  if (typeof v === 'string') return stringHash(v);
  return stringHash(JSON.stringify(v));
}

export function showValue(v: Value | undefined): string {
  return v === null || v === undefined ? 'nil' : JSON.stringify(v);
}
