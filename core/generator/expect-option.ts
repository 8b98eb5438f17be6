/**
 * Option checks shared by the generators. A generator's options come from
 * the command line or a run file, so a bad one is a UsageError worded as
 * the CLI words them: "Expected `rate` to be a positive number, got `0`".
 */
import { UsageError } from '../errors.js';

export function expectPositive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`Expected \`${name}\` to be a positive number, got \`${value}\``);
  return value;
}

export function expectNonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`Expected \`${name}\` to be a non-negative number, got \`${value}\``);
  return value;
}
