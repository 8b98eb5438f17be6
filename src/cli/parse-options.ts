/**
 * Option parsers shared by the commands: each turns a flag's text into a
 * value or throws a UsageError that says what was expected and what was got.
 */
import { UsageError } from '../errors.js';
import { jsonTextProblem } from '../history/json-text-checks.js';
import type { Value } from '../history/op.js';

export function positiveInteger(flag: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`Expected \`${flag}\` to be a positive integer, got \`${text}\``);
    return n;
  };
}

export function nonNegativeInteger(flag: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`Expected \`${flag}\` to be a non-negative integer, got \`${text}\``);
    return n;
  };
}

export function positiveNumber(flag: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`Expected \`${flag}\` to be a positive number, got \`${text}\``);
    return n;
  };
}

export function integer(flag: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isSafeInteger(n)) throw new UsageError(`Expected \`${flag}\` to be an integer, got \`${text}\``);
    return n;
  };
}

/** A seed: what the PRNG takes (src/random/prng.ts), a non-negative safe integer, checked before any cluster starts. */
export function seedFlag(flag: string) {
  return (text: string): number => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isSafeInteger(n) || n < 0) throw new UsageError(`Expected \`${flag}\` to be a non-negative integer (at most 2^53 - 1), got \`${text}\``);
    return n;
  };
}

export function oneOf<T extends string>(flag: string, choices: readonly T[]) {
  return (text: string): T => {
    if ((choices as readonly string[]).includes(text)) return text as T;
    throw new UsageError(`Expected \`${flag}\` to be one of ${choices.join(', ')}, got \`${text}\``);
  };
}

export function jsonValue(flag: string) {
  return (text: string): Value => {
    const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
    let value: Value;
    try {
      value = JSON.parse(text) as Value;
    } catch {
      throw new UsageError(`Expected \`${flag}\` to be JSON (e.g. 0, null, "x"), got \`${shown}\``, 'Quote strings twice in the shell: --init \'"x"\'.');
    }
    // The same bounds as a history's values: no rounded integers, no Infinity, no nesting that overflows the stack.
    const problem = jsonTextProblem(text);
    if (problem !== null) throw new UsageError(`Expected \`${flag}\` to be ${problem.expected}, got ${problem.found} at character ${problem.offset + 1}`);
    return value;
  };
}
