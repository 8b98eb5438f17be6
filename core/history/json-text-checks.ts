/**
 * What JSON.parse accepts but a history must not silently change: numbers a
 * double cannot hold apart from their neighbours (an integer beyond 2^53 is
 * rounded to a neighbour, so two different writes could read as equal;
 * `1e-400` and `-1e-400` both underflow to 0; `1e400` becomes Infinity, which
 * JSON.stringify prints as `null`) and nesting so deep that the recursive
 * JSON functions the checker uses (hash, stringify) overflow the stack.
 *
 * Why a scan of the text and not of the parsed value: the text still has the
 * literal as written (the parsed value has already lost it) and gives the
 * column for the error. The scan runs only on lines that could hold such a
 * thing: long enough to nest that deep, or whose parsed value holds a number
 * that is zero, tiny, beyond 2^53 or infinite (valueFacts, a walk of the few
 * fields of an op, which also counts keys for duplicate-keys.ts: a regular
 * expression over every line cost as much as the parsing itself).
 */
import { MAX_DEPTH } from './read-limits.js';

/** A problem at a 0-based offset of the text, phrased for a ParseError. */
export interface TextProblem {
  offset: number;
  expected: string;
  found: string;
}

const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** The smallest normal double: below it a double keeps fewer digits, and different literals read as one number. */
const MIN_NORMAL = 2 ** -1022;

/**
 * Why a number literal cannot be read without possibly merging it with a
 * different literal, or null when it can. `literal` is the text without EDN's
 * N/M suffix. Refused, in any spelling (integer, float, exponent, ratio):
 * beyond the double range (Infinity); beyond 2^53, where a double holds no
 * fraction and neighbouring integers share one double (`9007199254740993.0`
 * reads as `...992`); below the smallest normal double (2.2e-308), where it
 * keeps fewer digits, down to underflow (`1e-400` and `-1e-400` both read as
 * 0). Ordinary decimals (`0.1`) round too, but only past the 17th digit, which
 * no recorder writes.
 */
export function unsafeNumberProblem(literal: string, value: number): string | null {
  if (!Number.isFinite(value)) return 'a number within the range of a double (±1.8e308); write larger values as strings';
  const integerLiteral = /^[+-]?\d+$/.test(literal);
  if (!Number.isSafeInteger(value) && Math.abs(value) >= 2 ** 53) {
    return integerLiteral
      ? 'an integer within ±(2^53 - 1), which a double holds exactly; write larger integers as strings'
      : 'a number within ±(2^53 - 1): beyond it a double holds no fraction and neighbouring values read as one; write larger values as strings';
  }
  if (integerLiteral) return null;
  if (value === 0 ? /[1-9]/.test(literal.split(/[eE]/)[0] as string) : Math.abs(value) < MIN_NORMAL) {
    return 'a number of magnitude 0 or at least 2.2e-308: smaller ones lose digits in a double or underflow to 0, so different values read as one; write them as strings';
  }
  return null;
}

/** How suspect the numbers of a parsed value are: NONE, TINY (zero or below the smallest normal double) or BIG. */
export const SUSPECT = { none: 0, tiny: 1, big: 2 } as const;

/** What one walk of a parsed value found, for the checks of its text that may then be skipped. */
export interface ValueFacts {
  /**
   * How suspect its numbers are (SUSPECT): BIG, beyond 2^53 or infinite (the
   * text must be scanned), or TINY, zero (an underflow reads as 0) or below the
   * smallest normal double (scanned only if the text could spell one:
   * mayHoldTinyNumber).
   */
  suspect: number;
  /** How many keys its objects hold, all together (duplicate-keys.ts compares it with the text's colons). */
  keys: number;
  /** Whether a string of it, a key or a value, holds a colon. */
  colonInString: boolean;
}

/** One walk of a parsed value (no deeper than MAX_DEPTH: its text is checked for depth first when it could be deeper). */
export function valueFacts(v: unknown): ValueFacts {
  const facts: ValueFacts = { suspect: SUSPECT.none, keys: 0, colonInString: false };
  walk(v, facts);
  return facts;
}

function walk(v: unknown, facts: ValueFacts): void {
  if (typeof v === 'number') {
    const suspect = !(Math.abs(v) < 2 ** 53) ? SUSPECT.big : Math.abs(v) < MIN_NORMAL ? SUSPECT.tiny : SUSPECT.none;
    if (suspect > facts.suspect) facts.suspect = suspect;
  } else if (typeof v === 'string') {
    if (!facts.colonInString && v.indexOf(':') >= 0) facts.colonInString = true;
  } else if (Array.isArray(v)) {
    for (const x of v) walk(x, facts);
  } else if (typeof v === 'object' && v !== null) {
    for (const k in v) {
      facts.keys++;
      if (!facts.colonInString && k.indexOf(':') >= 0) facts.colonInString = true;
      walk((v as Record<string, unknown>)[k], facts);
    }
  }
}

/**
 * Whether a text could spell a number below the smallest normal double: only
 * with a negative exponent (`1e-400`) or some 300 zeros after the point. Zeros
 * are everywhere in histories (process 0, a write of 0), so the scan for a
 * zero that was an underflow runs only on texts that pass this.
 */
export function mayHoldTinyNumber(text: string): boolean {
  return text.length > 300 || text.indexOf('e-') >= 0 || text.indexOf('E-') >= 0;
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
