/**
 * A history value as a person reads it, for witnesses and error messages:
 * a JSON value in JSON, and an EDN type JSON lacks (edn-value.ts) as EDN
 * writes it (`:k`, `sym`, `\a`, `1.0`, `##Inf`, `1.5M`, `1/2`, `#{1 2}`,
 * `{:a 1}`, `{1 :x}`, `#inst "2020-01-01T00:00:00.000Z"`), never as the
 * one-key object it is held as. A value reads as written up to its canonical
 * form: a ratio reduced, a BigDecimal without trailing zeros, an instant in
 * UTC, a set's members and a map's entries in their sorted order.
 */
import { EDN_TAG, ednTagOf } from './edn-value.js';
import type { Value } from './op.js';

const CHARACTER_NAMES = new Map(Object.entries({ '\n': 'newline', ' ': 'space', '\t': 'tab', '\r': 'return', '\f': 'formfeed', '\b': 'backspace' }));

/** `v` in JSON, its EDN types in EDN. */
export function showValue(v: Value): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(showValue).join(',')}]`;
  const tagged = ednTagOf(v);
  if (tagged !== undefined) {
    const text = showTagged(tagged.tag, tagged.payload);
    if (text !== undefined) return text;
  }
  const keys = Object.keys(v);
  const shown = keys.map((k) => showValue(v[k] as Value));
  // A map with string keys and an EDN value ({"1" :x}, read from EDN) is written as EDN: `{"1"::x}` reads as neither.
  const edn = keys.some((k, i) => shown[i] !== JSON.stringify(v[k]));
  return edn
    ? `{${keys.map((k, i) => `${JSON.stringify(k)} ${shown[i]}`).join(', ')}}`
    : `{${keys.map((k, i) => `${JSON.stringify(k)}:${shown[i]}`).join(',')}}`;
}

// A tagged value in EDN; undefined when the payload is not one the tag's reader makes (a JSON object that looks tagged).
function showTagged(tag: string, p: Value): string | undefined {
  switch (tag) {
    case EDN_TAG.keyword:
      return typeof p === 'string' ? `:${p}` : undefined;
    case EDN_TAG.symbol:
      return typeof p === 'string' ? p : undefined;
    case EDN_TAG.character:
      return typeof p === 'string' && p.length === 1 ? `\\${showCharacter(p)}` : undefined;
    case EDN_TAG.double:
      if (p === 'Infinity') return '##Inf';
      if (p === '-Infinity') return '##-Inf';
      return typeof p === 'number' && Number.isInteger(p) ? `${p}.0` : undefined;
    case EDN_TAG.bigdec:
      return typeof p === 'string' ? `${p}M` : undefined;
    case EDN_TAG.ratio:
      return typeof p === 'string' ? p : undefined;
    case EDN_TAG.set:
      return Array.isArray(p) ? `#{${p.map(showValue).join(' ')}}` : undefined;
    case EDN_TAG.keywordMap:
      if (typeof p !== 'object' || p === null || Array.isArray(p)) return undefined;
      return `{${Object.keys(p)
        .map((k) => `:${k} ${showValue(p[k] as Value)}`)
        .join(', ')}}`;
    case EDN_TAG.entryMap:
      if (!Array.isArray(p) || !p.every((e) => Array.isArray(e) && e.length === 2)) return undefined;
      return `{${(p as Value[][]).map(([k, x]) => `${showValue(k as Value)} ${showValue(x as Value)}`).join(', ')}}`;
    default:
      return `${tag} ${showValue(p)}`;
  }
}

function showCharacter(c: string): string {
  const named = CHARACTER_NAMES.get(c);
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) ? `u${code.toString(16).padStart(4, '0')}` : c;
}
