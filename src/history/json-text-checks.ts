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
 * thing: long enough to nest that deep, or whose parsed value holds a number
 * that is not a safe integer but is integral or infinite (hasSuspectNumber, a
 * walk of the few fields of an op: a regular expression over every line cost
 * as much as the parsing itself).
 */
import { MAX_DEPTH } from './read-limits.js';

/** A problem at a 0-based offset of the text, phrased for a ParseError. */
export interface TextProblem {
  offset: number;
  expected: string;
  found: string;
}

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
 * Whether a parsed value (no deeper than its text is long) holds a number its
 * text may have written unsafely: an integral value beyond 2^53 or an
 * infinite one. Only then does the text need scanning.
 */
export function hasSuspectNumber(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isSafeInteger(v) && (Number.isInteger(v) || !Number.isFinite(v));
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (hasSuspectNumber(x)) return true;
    return false;
  }
  for (const k in v) if (hasSuspectNumber((v as Record<string, unknown>)[k])) return true;
  return false;
}

/**
 * The first unsafe number or too-deep nesting in a JSON text (a line or a
 * whole file), or null. Strings are skipped. `numbers: false` checks only the
 * depth (files whose numbers are not history values).
 */
export function jsonTextProblem(text: string, maxDepth: number = MAX_DEPTH, opts: { numbers?: boolean } = {}): TextProblem | null {
  const numbers = opts.numbers ?? true;
  if (text.length <= maxDepth && !numbers) return null;
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
