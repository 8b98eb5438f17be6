/**
 * What JSON.parse accepts but a history must not silently change: numbers a
 * double cannot hold (an integer beyond 2^53 is rounded to a neighbour, so two
 * different writes could read as equal; `1e400` becomes Infinity, which
 * JSON.stringify prints as `null`) and nesting so deep that the recursive
 * JSON functions the checker uses (hash, stringify) overflow the stack.
 *
 * Why a scan of the text and not of the parsed value: the text still has the
 * literal as written (the parsed value has already lost it) and gives the
 * column for the error. The scan runs only on lines that could hold such a
 * thing (long enough to nest that deep, or with 16 digits in a row or an
 * exponent of two digits), so ordinary lines cost one regular expression test.
 */
import { MAX_DEPTH } from './read-limits.js';

/** A problem at a 0-based offset of the text, phrased for a ParseError. */
export interface TextProblem {
  offset: number;
  expected: string;
  found: string;
}

const SUSPECT_NUMBER = /\d{16}|[eE][+-]?\d\d/;
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** Why a number literal cannot be read exactly, or null when it can. `literal` is the text without EDN's N/M suffix. */
export function unsafeNumberProblem(literal: string, value: number): string | null {
  if (!Number.isFinite(value)) return 'a number within the range of a double (±1.8e308); write larger values as strings';
  if (/^[+-]?\d+$/.test(literal) && !Number.isSafeInteger(value)) {
    return 'an integer within ±(2^53 - 1), which a double holds exactly; write larger integers as strings';
  }
  return null;
}

/**
 * The first unsafe number or too-deep nesting in one line of JSON (or a whole
 * JSON file), or null. Strings are skipped. `numbers: false` checks only the
 * depth (files whose numbers are not history values).
 */
export function jsonTextProblem(text: string, maxDepth: number = MAX_DEPTH, opts: { numbers?: boolean } = {}): TextProblem | null {
  const numbers = opts.numbers ?? true;
  if (text.length <= maxDepth && !(numbers && SUSPECT_NUMBER.test(text))) return null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return { offset: i, expected: `values nested at most ${maxDepth} deep`, found: 'deeper nesting' };
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (numbers && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) continue;
      const literal = m[0];
      const problem = unsafeNumberProblem(literal, Number(literal));
      if (problem !== null) return { offset: i, expected: problem, found: `\`${literal.length > 40 ? `${literal.slice(0, 40)}...` : literal}\`` };
      i += literal.length - 1;
    }
  }
  return null;
}
