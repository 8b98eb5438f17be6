/**
 * Bounds on what reading a history may cost, so a hostile or mistaken input
 * (`/dev/zero`, a FIFO, a 600 MB line, JSON nested 5,000 deep) is refused
 * with a 254 instead of growing the process until the machine swaps or the
 * stack overflows.
 *
 * Why these defaults: a check is documented to stay under 1 GB
 * (docs/checker.md, "Limits"): the search's tables are bounded by
 * --max-search-mb (448 MiB), and `fencecheck check` bounds its operations'
 * estimated memory by the same number as the file (src/check/operations-memory.ts),
 * 384 MiB by default (a seeded 1,000,000-op kv history on 64 keys, the
 * largest the benchmarks check, is estimated at 368 MiB), which leaves some
 * 200 MiB for Node itself. A file larger
 * than that is refused by its size before it is read (its operations would
 * take at least as much). No recorded history comes near: the largest corpus
 * file is 318 KB, a 100,000-op run about 15 MB. A line of
 * 16 MiB is thousands of times any real op. A JSON value nested 1,000 deep
 * (the EDN reader's bound too) is far beyond any op and well inside what the
 * recursive JSON functions (hash, stringify) survive.
 */
import { EXIT, FencecheckError } from '../errors.js';

export interface ReadLimits {
  /** The most bytes read from one history file; `fencecheck check` bounds its operations' estimated memory by it too. */
  maxHistoryBytes: number;
  /** The longest line, in characters (every line format; EDN too, as forms sit on lines). */
  maxLineChars: number;
}

/** The deepest nesting of arrays and objects in one value, JSON or EDN (fixed: no history comes near it). */
export const MAX_DEPTH = 1000;

export const MIB = 2 ** 20;

export const DEFAULT_READ_LIMITS: Readonly<ReadLimits> = { maxHistoryBytes: 384 * MIB, maxLineChars: 16 * MIB };

/** The flags that change the limits, named in the errors' hints. */
export const LIMIT_FLAGS = { maxHistoryBytes: '--max-history-mb', maxLineChars: '--max-line-mb' } as const;

export function readLimits(given: Partial<ReadLimits> | undefined): ReadLimits {
  return { ...DEFAULT_READ_LIMITS, ...given };
}

/** A history larger than the limit: bad input (254), with the flag that raises the limit. */
export function tooLargeError(path: string, limitBytes: number): FencecheckError {
  return new FencecheckError('too-large', `Cannot read history ${path}: it is larger than ${formatMib(limitBytes)}`, {
    hint: `Raise the limit with ${LIMIT_FLAGS.maxHistoryBytes} if the file really is a history and the machine has the memory: a check takes about that much for the history, plus up to --max-search-mb for the search, plus some 200 MiB (docs/checker.md, "Limits").`,
    exitCode: EXIT.badInput,
  });
}

export function formatMib(bytes: number): string {
  return `${Math.round((bytes / MIB) * 10) / 10} MiB`;
}
