/**
 * Numeric flags and their ranges: every number a command takes has a range,
 * shown in its --help and docs, and anything outside it, or not written as a
 * plain decimal, is a UsageError (254) before anything starts.
 *
 * Why plain decimals only: `Number()` also reads `1e9`, `0x10`, ` 5 `, `+5`
 * and `''` (as 0), so a typo or a huge exponent passed where a person meant a
 * small number. Why upper bounds: Node's timers take at most 2^31 - 1 ms
 * (about 24.8 days) and fire after 1 ms beyond that, so an unbounded
 * `--time-limit 1e9` ended a run at once; a bound also keeps a run, a check
 * or a wait on the scale a person would ask for.
 */
import { UsageError } from './errors.js';

export interface NumberRange {
  min: number;
  max: number;
  /** Whole numbers only (the default); false admits a decimal fraction (`--rate 0.5`). */
  integer?: boolean;
  /** What the number counts, for messages and help: `s`, `ms`, `MiB`. */
  unit?: string;
}

/** Node's largest timer delay (setTimeout clamps anything above it to 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const INTEGER_TEXT = /^\d+$/;
const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

/** "an integer from 1 to 86400 (s)" */
export function rangeText(r: NumberRange): string {
  return `${r.integer === false ? 'a number' : 'an integer'} from ${bound(r.min)} to ${bound(r.max)}${r.unit ? ` (${r.unit})` : ''}`;
}

/** "1..86400 s", for a flag's help line. */
export function rangeHelp(r: NumberRange): string {
  return `${bound(r.min)}..${bound(r.max)}${r.unit ? ` ${r.unit}` : ''}`;
}

/** A commander arg parser: the text as a number in range, else "Expected `--flag` to be an integer from …, got `…`". */
export function parseInRange(flag: string, r: NumberRange): (text: string) => number {
  return (text: string): number => {
    const syntax = r.integer === false ? DECIMAL_TEXT : INTEGER_TEXT;
    if (!syntax.test(text))
      throw outOfRange(flag, r, text, `Write it as a plain decimal${r.integer === false ? '' : ' integer'}: no exponent, sign, blanks or hex.`);
    return assertInRange(flag, r, Number(text), text);
  };
}

/** The value itself when in range (options that arrive as numbers: a compare manifest, a scenario, a test). */
export function assertInRange(flag: string, r: NumberRange, n: number, shown: string = String(n)): number {
  const ok = Number.isFinite(n) && (r.integer === false || Number.isSafeInteger(n)) && n >= r.min && n <= r.max;
  if (!ok) throw outOfRange(flag, r, shown);
  return n;
}

function outOfRange(flag: string, r: NumberRange, shown: string, hint?: string): UsageError {
  return new UsageError(`Expected \`${flag}\` to be ${rangeText(r)}, got \`${clip(shown)}\``, hint);
}

function bound(n: number): string {
  return n === Number.MAX_SAFE_INTEGER ? '2^53 - 1' : String(n);
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
