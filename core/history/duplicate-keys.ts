/**
 * Duplicate keys in a JSON text. JSON.parse keeps the last of them, so
 * `{"type":"fail", …, "type":"ok"}` reads as an ok op, and a value
 * `{"a":1,"a":2}` as `{"a":2}`: a file says two things and the checker hears
 * one. EDN forbids duplicate keys (edn.ts refuses them), and every JSON input
 * is held to the same rule (strict-json.ts for the small files and flags; valueFacts and duplicateKey here for history lines).
 *
 * Why a count before any scan: histories run to hundreds of MB, and a scan of
 * every line's characters in JavaScript costs about what JSON.parse does. A
 * text whose strings hold no colon has exactly one colon per key-value pair,
 * so it holds a duplicate exactly when it has more colons (counted natively,
 * one indexOf per pair) than its parsed objects have keys (counted in the
 * walk that already looks at its numbers: valueFacts). Only a text that fails
 * that count, or whose strings hold a colon (an error message naming
 * `host:port`), is scanned key by key.
 */
import type { ValueFacts } from './json-text-checks.js';

/** A key seen twice in one object: the 0-based offsets of its second and first spellings. */
export interface DuplicateKey {
  key: string;
  offset: number;
  firstOffset: number;
}

/** The first duplicate key of `text`, which JSON.parse read into a value with `facts`; null when it has none. */
export function duplicateKey(text: string, facts: ValueFacts): DuplicateKey | null {
  if (!facts.colonInString && colonCount(text) === facts.keys) return null;
  return firstDuplicateKey(text);
}

function colonCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) n++;
  return n;
}

/**
 * The first key that an object of `text` (valid JSON) holds twice, by the
 * string it decodes to (`"a"` and `"\u0061"` are one key, as JSON.parse has
 * them), or null.
 */
export function firstDuplicateKey(text: string): DuplicateKey | null {
  // One entry per open container: the keys seen so far (with where), or null for an array.
  const open: (Map<string, number> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      let escaped = false;
      for (i++; text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c) {
          escaped = true;
          i++;
        }
      }
      if (!expectKey) continue;
      expectKey = false;
      const keys = open[open.length - 1] as Map<string, number>;
      const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      const first = keys.get(key);
      if (first !== undefined) return { key, offset: start, firstOffset: first };
      keys.set(key, start);
    } else if (c === 0x7b) {
      open.push(new Map());
      expectKey = true;
    } else if (c === 0x5b) {
      open.push(null);
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    } else if (c === 0x2c) {
      expectKey = open[open.length - 1] != null;
    }
  }
  return null;
}
