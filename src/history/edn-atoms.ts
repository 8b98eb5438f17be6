/**
 * What EDN's bare tokens mean, as history values: `nil`, `true`, `false`,
 * numbers (edn-numbers.ts), symbols (`{"#'": "sym"}`), character names and
 * the symbolic values `##Inf` & co. A symbol, a character and a double
 * without a fraction are EDN types JSON lacks, read as the one-key objects of
 * core/history/edn-value.ts, so that none equals a string or an integer.
 * Pure functions over one token's text; the reader (edn.ts) finds the tokens
 * and reports errors at their position.
 */
import type { Value } from '../../core/history/op.js';
import { ednDouble, ednSymbol } from '../../core/history/edn-value.js';
import { ednNumber } from './edn-numbers.js';

// Maps, not object literals: a name read from the input must not find `constructor` on a prototype.
const NAMED_CHARS = new Map(Object.entries({ newline: '\n', space: ' ', tab: '\t', return: '\r', formfeed: '\f', backspace: '\b' }));

/** A bare token's value; undefined when it starts like a number but is refused or none (ednNumberProblem says why). */
export function ednAtom(text: string): Value | undefined {
  if (text === 'nil') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  const c0 = text.charCodeAt(0);
  const numeric = isDigit(c0) || ((c0 === 0x2b || c0 === 0x2d) && isDigit(text.charCodeAt(1)));
  return numeric ? ednNumber(text) : ednSymbol(text);
}

/**
 * The character a `\name` literal names (`a`, `newline`, `u00e9`), or
 * undefined; a `\u` escape of half a surrogate pair is none (Clojure refuses it).
 */
export function ednCharacter(name: string): string | undefined {
  if (name.length === 1) return name;
  const named = NAMED_CHARS.get(name);
  if (named !== undefined) return named;
  if (!/^u[0-9a-fA-F]{4}$/.test(name)) return undefined;
  const code = parseInt(name.slice(1), 16);
  return code >= 0xd800 && code <= 0xdfff ? undefined : String.fromCharCode(code);
}

/**
 * `##Inf` and `##-Inf` as doubles, or undefined. `##NaN` is undefined too:
 * Clojure's `=` finds NaN equal to nothing, itself included, so no read of it
 * could match a write and no set or map could hold it as a key (edn.ts
 * refuses it with that reason).
 */
export function ednSymbolicValue(name: string): Value | undefined {
  return name === 'Inf' ? ednDouble(Infinity) : name === '-Inf' ? ednDouble(-Infinity) : undefined;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
