/**
 * The EDN values JSON has no equal of, as history values.
 *
 * A history value is a JSON value (values cross to worker threads as JSON,
 * and JSON Lines is the native format), but EDN has more types than JSON, and
 * Clojure's `=` keeps them apart: a keyword, a symbol and a string of the same
 * name; an integer, a double, a ratio and a BigDecimal of the same magnitude;
 * a character and a one-letter string; a tagged literal and its form. So the
 * EDN reader spells each such value as an object with one key, its *tag*,
 * which names the type, and a payload that is canonical (one spelling per
 * value: a ratio reduced, a BigDecimal without trailing zeros, an instant in
 * UTC to the millisecond, a set's members and a map's entries sorted). Equal
 * EDN values are then structurally equal JSON values, and only they, so the
 * one structural equality of canonical-value.ts serves every format and the
 * JSON paths pay nothing for EDN.
 *
 * What stays a plain JSON value, because JSON has the same value with the
 * same equality: nil, booleans, strings, integers (`1`, `1N`: Clojure's `=`
 * holds integers of any size as one category), doubles with a fraction
 * (`1.5`: no integer equals one), vectors and lists (Clojure's `=` holds them
 * equal), and maps whose keys are all strings (objects). Every tag starts
 * with `#` and a character a tag symbol cannot start with; a tagged literal's
 * tag is `#` and its own symbol, which starts with a letter. A string-keyed
 * EDN map whose only key starts with `#` would look like a tagged value, so
 * it is spelled as entries instead (`#{[]}`).
 */
import { canonicalKey } from './canonical-value.js';
import type { Value } from './op.js';

/** The tag of each EDN type JSON lacks: the one key of the object it is read as. */
export const EDN_TAG = {
  /** `:k`, `:ns/k` → `{"#:": "k"}`, `{"#:": "ns/k"}` */
  keyword: '#:',
  /** `sym` → `{"#'": "sym"}` */
  symbol: "#'",
  /** `\a` → `{"#\\": "a"}` */
  character: '#\\',
  /** A double without a fraction or not finite: `1.0` → `{"#.": 1}`, `##Inf` → `{"#.": "Infinity"}` (`1.5` is the number 1.5). */
  double: '#.',
  /** `1.50M` → `{"#.M": "1.5"}`: the digits, trailing zeros dropped (Clojure's `=` on BigDecimals ignores scale). */
  bigdec: '#.M',
  /** `2/4` → `{"#/": "1/2"}`: reduced; a ratio that reduces to an integer is that integer. */
  ratio: '#/',
  /** `#{2 1}` → `{"#{}": [1, 2]}`: the members sorted by their canonical key. */
  set: '#{}',
  /** `{:a 1}` → `{"#{:}": {"a": 1}}`: a map whose keys are all keywords, by the keywords' names. */
  keywordMap: '#{:}',
  /** `{1 :x}` → `{"#{[]}": [[1, {"#:": "x"}]]}`: any other map, as [key, value] entries sorted by the key's canonical key. */
  entryMap: '#{[]}',
} as const;

export type EdnTag = (typeof EDN_TAG)[keyof typeof EDN_TAG];

/** The key of the object a set is read as (EDN_TAG.set). */
export const SET_KEY = EDN_TAG.set;

const TAGS: ReadonlySet<string> = new Set(Object.values(EDN_TAG));

export function ednKeyword(name: string): Value {
  return { [EDN_TAG.keyword]: name };
}

export function ednSymbol(name: string): Value {
  return { [EDN_TAG.symbol]: name };
}

export function ednCharacterValue(c: string): Value {
  return { [EDN_TAG.character]: c };
}

/** A double: a plain number when it has a fraction, tagged when it could be mistaken for an integer or is infinite. */
export function ednDouble(n: number): Value {
  if (!Number.isFinite(n)) return { [EDN_TAG.double]: n > 0 ? 'Infinity' : '-Infinity' };
  if (!Number.isInteger(n)) return n;
  // -0.0 is 0.0 to Clojure's `=`; JSON has no -0 either.
  return { [EDN_TAG.double]: n === 0 ? 0 : n };
}

/**
 * A set of `members` as a history value, or the index of a member equal to an
 * earlier one (a set must not hold duplicates).
 */
export function ednSet(members: Value[]): { value: Value } | { duplicate: number } {
  const keyed = members.map((m, i) => ({ key: canonicalKey(m), m, i }));
  keyed.sort(byKeyThenIndex);
  for (let i = 1; i < keyed.length; i++) if (keyed[i]!.key === keyed[i - 1]!.key) return { duplicate: keyed[i]!.i };
  return { value: { [EDN_TAG.set]: keyed.map((k) => k.m) } };
}

/**
 * A map of any keys as its entries sorted by their keys' canonical keys, or
 * the index of an entry whose key equals an earlier one's (EDN forbids it).
 */
export function ednEntryMap(entries: [Value, Value][]): { value: Value } | { duplicate: number } {
  const keyed = entries.map((e, i) => ({ key: canonicalKey(e[0]), e, i }));
  keyed.sort(byKeyThenIndex);
  for (let i = 1; i < keyed.length; i++) if (keyed[i]!.key === keyed[i - 1]!.key) return { duplicate: keyed[i]!.i };
  return { value: { [EDN_TAG.entryMap]: keyed.map((k) => k.e) } };
}

function byKeyThenIndex(x: { key: string; i: number }, y: { key: string; i: number }): number {
  return x.key < y.key ? -1 : x.key > y.key ? 1 : x.i - y.i;
}

/** A tagged literal other than the built-in ones: `#my.Tag v` → `{"#my.Tag": v}` (equal when tag and value are). */
export function ednTaggedValue(tag: string, v: Value): Value {
  return { [`#${tag}`]: v };
}

/**
 * The tag and payload of a value read as an EDN type JSON lacks (one of
 * EDN_TAG, or `#` and a tagged literal's symbol), or undefined for a plain
 * JSON value. A JSON object with one key starting `#` answers too: it spells
 * the same value (how `--init` can give a keyword: `{"#:": "a"}`).
 */
export function ednTagOf(v: Value): { tag: string; payload: Value } | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  let tag: string | undefined;
  for (const k in v) {
    if (tag !== undefined || k.charCodeAt(0) !== 0x23) return undefined;
    tag = k;
  }
  if (tag === undefined || !(TAGS.has(tag) || isTaggedLiteralKey(tag))) return undefined;
  return { tag, payload: v[tag] as Value };
}

/** Whether `key` is how a tagged literal's tag is spelled: `#` then a symbol starting with a letter. */
export function isTaggedLiteralKey(key: string): boolean {
  const c = key.charCodeAt(1);
  return key.charCodeAt(0) === 0x23 && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a));
}

/** A keyword's name (`{"#:": "k"}` → "k"), or undefined for any other value. */
export function keywordName(v: Value | undefined): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const name = v[EDN_TAG.keyword];
  return typeof name === 'string' && ednTagOf(v) !== undefined ? name : undefined;
}
