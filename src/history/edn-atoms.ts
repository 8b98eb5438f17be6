/**
 * What EDN's bare tokens mean, as JSON values: `nil`, `true`, `false`,
 * numbers (the BigInt `N` and BigDecimal `M` suffixes read as plain numbers),
 * symbols (strings), character names and the symbolic values `##Inf` & co.
 * Pure functions over one token's text; the reader (edn.ts) finds the tokens
 * and reports errors at their position.
 */
import type { Value } from '../../core/history/op.js';

const INT = /^[+-]?\d+N?$/;
const FLOAT = /^[+-]?\d+(\.\d*)?([eE][+-]?\d+)?M?$/;
const RATIO = /^[+-]?\d+\/\d+$/;
// Maps, not object literals: a name read from the input must not find `constructor` on a prototype.
const NAMED_CHARS = new Map(Object.entries({ newline: '\n', space: ' ', tab: '\t', return: '\r', formfeed: '\f', backspace: '\b' }));
const SYMBOLIC = new Map(Object.entries({ Inf: 'Infinity', '-Inf': '-Infinity', NaN: 'NaN' }));

/** A bare token's value; undefined when it starts like a number but is not one (`12abc`). */
export function ednAtom(text: string): Value | undefined {
  if (text === 'nil') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  const c0 = text.charCodeAt(0);
  const numeric = isDigit(c0) || ((c0 === 0x2b || c0 === 0x2d) && isDigit(text.charCodeAt(1)));
  if (!numeric) return text;
  let n: number;
  if (INT.test(text)) n = Number(text.endsWith('N') ? text.slice(0, -1) : text);
  else if (FLOAT.test(text)) n = Number(text.endsWith('M') ? text.slice(0, -1) : text);
  else if (RATIO.test(text)) {
    const [num, den] = text.split('/');
    n = Number(num) / Number(den);
  } else return undefined;
  // -0 has no JSON spelling of its own; read it as 0 so a round trip is exact.
  return n === 0 ? 0 : n;
}

/** The character a `\name` literal names (`a`, `newline`, `u00e9`), or undefined. */
export function ednCharacter(name: string): string | undefined {
  if (name.length === 1) return name;
  const named = NAMED_CHARS.get(name);
  if (named !== undefined) return named;
  return /^u[0-9a-fA-F]{4}$/.test(name) ? String.fromCharCode(parseInt(name.slice(1), 16)) : undefined;
}

/** `##Inf`, `##-Inf`, `##NaN` as strings (JSON has no such numbers), or undefined. */
export function ednSymbolicValue(name: string): string | undefined {
  return SYMBOLIC.get(name);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
