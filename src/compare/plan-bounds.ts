/**
 * The bounds of a plan, checked before it is built: the seeds a comparison or
 * a scenario run uses must all be seeds `--seed` / `--first-seed` accept (so
 * every printed replay command parses back), and the runs must be few enough
 * to hold as a plan (a million seeds made V8 run out of memory on a dry run).
 */
import { UsageError } from '../../core/errors.js';

/** Far past any plan a machine runs (a run takes 10 s at the least: 100,000 runs are over eleven days), far below memory trouble. */
export const MAX_PLANNED_RUNS = 100_000;

/** first, first+1, …, first+count-1; refused when the last is past 2^53 - 1 (its replay's --seed would not parse). */
export function seedRange(first: number, count: number, flags = { first: '--first-seed', count: '--seeds' }): number[] {
  // Compared without forming first + count - 1, which rounds: 2^53 - 1 + 2 - 1 is 2^53 - 1 in doubles.
  if (count - 1 > Number.MAX_SAFE_INTEGER - first) {
    throw new UsageError(
      `Expected \`${flags.first}\` + \`${flags.count}\` - 1 to be at most 2^53 - 1, got ${first} + ${count} - 1`,
      `The last run's replay command gives its seed as --first-seed, which must be at most 2^53 - 1: lower ${flags.first}.`,
    );
  }
  assertPlanSize(count, `${count} seeds`);
  return Array.from({ length: count }, (_, i) => first + i);
}

/** Refuses a plan of more than MAX_PLANNED_RUNS runs, before it is built. */
export function assertPlanSize(runs: number, what: string): void {
  if (runs <= MAX_PLANNED_RUNS) return;
  throw new UsageError(
    `Expected a plan of at most ${MAX_PLANNED_RUNS.toLocaleString('en')} runs, got ${what} (${runs.toLocaleString('en')} runs)`,
    'Lower --seeds, or split the matrix with --shard i/N across machines (each shard is bounded alone).',
  );
}
