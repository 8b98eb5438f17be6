/**
 * Value equality as EDN and JSON mean it, on the JSON values a history holds.
 *
 * A map (a JSON object) is equal to another with the same entries in any
 * order; a vector (an array) only to one with the same items in the same
 * order; a set only to a set with the same members, in any order, and never to
 * a vector. `canonicalKey` spells a value so that equal values, and only they,
 * have the same spelling: objects with their keys sorted, everything else as
 * JSON. Equality and hashing both go through it, so they always agree.
 *
 * How a set is held: JSON has no sets, so the EDN reader reads `#{...}` as an
 * object with the one key `SET_KEY` and its members sorted by their canonical
 * key (`ednSet`). That keeps every history value a JSON value (values cross to
 * worker threads as JSON), makes sets order-free by construction, and keeps a
 * set apart from a vector of the same members. The reader refuses a set with a
 * duplicate member (EDN forbids it) and an EDN map with the key `SET_KEY`
 * itself, the one map that could otherwise pass for a set.
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

/**
 * A set of `members` as a history value, or the index of a member equal to an
 * earlier one (a set must not hold duplicates).
 */
export function ednSet(members: Value[]): { value: Value } | { duplicate: number } {
  const keyed = members.map((m, i) => ({ key: canonicalKey(m), m, i }));
  keyed.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.i - y.i));
  for (let i = 1; i < keyed.length; i++) if (keyed[i]!.key === keyed[i - 1]!.key) return { duplicate: keyed[i]!.i };
  return { value: { [SET_KEY]: keyed.map((k) => k.m) } };
}
