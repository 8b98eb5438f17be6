/**
 * Value equality as EDN and JSON mean it, on the JSON values a history holds.
 *
 * A map (a JSON object) is equal to another with the same entries in any
 * order; a vector (an array) only to one with the same items in the same
 * order. `canonicalKey` spells a value so that equal values, and only they,
 * have the same spelling: objects with their keys sorted, everything else as
 * JSON. Equality and hashing both go through it, so they always agree.
 *
 * Equality is structural and nothing else, for every format: JSON means a
 * number by its value (`1` and `1.0` are one number) and an object by its
 * entries. The EDN types JSON lacks (keywords, symbols, characters, doubles
 * without a fraction, ratios, BigDecimals, tagged literals, sets, maps with
 * keys that are not strings) are read as one-key objects with a canonical
 * payload (edn-value.ts), so that two EDN values are structurally equal
 * exactly when Clojure's `=` holds them equal, with no type tests here: the
 * JSON paths compare as fast as before.
 */
import type { Value } from './op.js';

/** The key of the object a set is read as: `#{1 2}` → `{"#{}": [1, 2]}`. */
export const SET_KEY = '#{}';

/** A spelling of `v` that equal values, and only they, share. */
export function canonicalKey(v: Value): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + canonicalKey(v[i] as Value);
    return out + ']';
  }
  const keys = Object.keys(v).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${canonicalKey(v[keys[i] as string] as Value)}`;
  return out + '}';
}

/**
 * Whether two values are equal as EDN and JSON mean it (maps and sets
 * order-free, sets apart from vectors): true exactly when their canonical keys
 * are, compared in place (no strings built: a register's writes are compared
 * with their echoes on every op). A set's members are sorted when it is read,
 * so equal sets hold them in the same order.
 */
export function canonicalEquals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!canonicalEquals(a[i] as Value, b[i] as Value)) return false;
    return true;
  }
  let keys = 0;
  for (const k in a) {
    if (!Object.hasOwn(b, k) || !canonicalEquals(a[k] as Value, b[k] as Value)) return false;
    keys++;
  }
  for (const k in b) if (Object.hasOwn(b, k)) keys--;
  return keys === 0;
}
