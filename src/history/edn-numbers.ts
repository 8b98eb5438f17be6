/**
 * What an EDN number token means, as Clojure's reader and `=` mean it, or
 * why it is refused.
 *
 * Clojure's `=` holds numbers of different categories apart, whatever their
 * magnitude: `(= 1 1.0)`, `(= 1/2 0.5)` and `(= 0.5 0.5M)` are all false,
 * while within a category it compares values: `(= 1 1N)`, `(= 1.0 1.00)`,
 * `(= 2/4 1/2)` and `(= 1.0M 1.00M)` are true (BigDecimals by compareTo since
 * Clojure 1.6, CLJ-1118: scale does not count). So each category reads as its
 * own kind of history value (core/history/edn-value.ts): integers (with or
 * without `N`) as plain numbers; doubles with a fraction as plain numbers
 * (no integer equals one) and the others tagged; ratios reduced, an integral
 * one as its integer (Clojure's reader does the same: `4/2` is 2); BigDecimals
 * by their digits, exactly (a double would merge `0.1M` and
 * `0.10000000000000001M`), trailing zeros dropped.
 *
 * Refused, where a double cannot keep a value apart from its neighbours
 * (json-text-checks.ts: an integer or double beyond 2^53, a double below the
 * smallest normal one or beyond the range): also a ratio with a term beyond
 * 2^53 or a zero denominator, and an integer with a leading zero (Clojure
 * reads `010` as octal 8 and `08` not at all; EDN forbids both). Hexadecimal
 * and radix integers (`0x10`, `2r101`) are not read (not EDN): refused as not
 * a number.
 */
import type { Value } from '../../core/history/op.js';
import { EDN_TAG, ednDouble } from '../../core/history/edn-value.js';
import { unsafeNumberProblem } from '../../core/history/json-text-checks.js';

const INT = /^[+-]?(\d+)N?$/;
const FLOAT = /^[+-]?\d+(\.\d*)?([eE][+-]?\d+)?M?$/;
const BIGDEC = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?M$/;
const RATIO = /^([+-]?)(\d+)\/(\d+)$/;
/** Java's BigDecimal holds its scale in an int. */
const MAX_SCALE = 2 ** 31 - 1;

/** A number token's value; undefined when it is refused or no number (ednNumberProblem says why). */
export function ednNumber(text: string): Value | undefined {
  return readNumber(text, null);
}

/** Why ednNumber refused `text`, phrased as what was expected. */
export function ednNumberProblem(text: string): string {
  const why = { expected: 'a number' };
  readNumber(text, why);
  return why.expected;
}

function readNumber(text: string, why: { expected: string } | null): Value | undefined {
  const int = INT.exec(text);
  if (int !== null) {
    if (int[1]!.length > 1 && int[1]!.charCodeAt(0) === 0x30)
      return refuse(why, 'an integer without a leading zero (EDN forbids them; Clojure reads `010` as octal 8)');
    const literal = text.endsWith('N') ? text.slice(0, -1) : text;
    const n = Number(literal);
    const problem = unsafeNumberProblem(literal, n);
    if (problem !== null) return refuse(why, problem);
    return n === 0 ? 0 : n;
  }
  if (FLOAT.test(text)) {
    if (text.endsWith('M')) return bigDecimal(text, why);
    const n = Number(text);
    const problem = unsafeNumberProblem(text, n);
    if (problem !== null) return refuse(why, problem);
    return ednDouble(n);
  }
  const ratio = RATIO.exec(text);
  if (ratio !== null) return reducedRatio(ratio[1] === '-', Number(ratio[2]), Number(ratio[3]), why);
  return undefined;
}

// A BigDecimal by its digits and exponent: `1.50M` and `15e-1M` are `{"#.M": "1.5"}`, every zero is "0".
function bigDecimal(text: string, why: { expected: string } | null): Value | undefined {
  const m = BIGDEC.exec(text)!;
  const fraction = m[3] ?? '';
  const exponent = Number(m[4] ?? 0);
  if (!(Math.abs(exponent) <= MAX_SCALE - fraction.length))
    return refuse(why, `a BigDecimal whose exponent is within ±${MAX_SCALE} (Java holds its scale in an int)`);
  let digits = (m[2]! + fraction).replace(/^0+/, '');
  let exp = exponent - fraction.length;
  if (digits === '') return { [EDN_TAG.bigdec]: '0' };
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  exp += trailing;
  return { [EDN_TAG.bigdec]: (m[1] === '-' ? '-' : '') + decimalText(digits, exp) };
}

/** `digits` × 10^`exp` (digits without leading or trailing zeros) as a decimal, in exponent form when far from 1. */
function decimalText(digits: string, exp: number): string {
  const point = digits.length + exp;
  if (exp >= 0 && point <= 21) return digits + '0'.repeat(exp);
  if (exp < 0 && point > 0) return `${digits.slice(0, point)}.${digits.slice(point)}`;
  if (exp < 0 && point > -6) return `0.${'0'.repeat(-point)}${digits}`;
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${mantissa}E${point - 1}`;
}

function reducedRatio(negative: boolean, num: number, den: number, why: { expected: string } | null): Value | undefined {
  if (!Number.isSafeInteger(num) || !Number.isSafeInteger(den)) {
    return refuse(why, 'a ratio whose terms are within 2^53 - 1, which a double holds exactly; write larger values as strings');
  }
  if (den === 0) return refuse(why, 'a ratio with a nonzero denominator (Clojure refuses to divide by zero)');
  const g = gcd(num, den);
  const n = num / g;
  const d = den / g;
  if (d === 1) return negative && n !== 0 ? -n : n;
  return { [EDN_TAG.ratio]: `${negative ? '-' : ''}${n}/${d}` };
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function refuse(why: { expected: string } | null, expected: string): undefined {
  if (why !== null) why.expected = expected;
  return undefined;
}
