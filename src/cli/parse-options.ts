/**
 * Option parsers shared by the commands: each turns a flag's text into a
 * value or throws a UsageError that says what was expected and what was got.
 */
import { UsageError } from '../../core/errors.js';
import { jsonTextProblem } from '../../core/history/json-text-checks.js';
import type { Value } from '../../core/history/op.js';
import { parseInRange, rangeHelp, type NumberRange } from '../../core/number-range.js';
import { RUN_RANGES } from '../../core/plan/run-options.js';
import { parseStrictJson } from '../../core/history/strict-json.js';
import { MAX_SLOTS } from '../../core/cluster/slots.js';

const SEED_RANGE = RUN_RANGES.seed;

/**
 * The range of every numeric flag outside the run options (those are RUN_RANGES in
 * core/plan/run-options.ts), in one place: parsers, --help and docs read them here.
 */
export const FLAG_RANGES = {
  '--seed': SEED_RANGE,
  '--first-seed': SEED_RANGE,
  // Runs per cell or variant: a thousand seeds of one cell is already days of runs.
  '--seeds': { min: 1, max: 1000 },
  '--busy-timeout-ms': { min: 0, max: 86_400_000, unit: 'ms' },
  '--timeout-ms': { min: 1, max: 86_400_000, unit: 'ms' },
  '--max-search-mb': { min: 1, max: 65_536, unit: 'MiB' },
  '--max-history-mb': { min: 1, max: 1_048_576, unit: 'MiB' },
  // V8's longest string is about 512 Mi characters.
  '--max-line-mb': { min: 1, max: 512, unit: 'Mi characters' },
  '--threads': { min: 1, max: 256 },
  '--port': { min: 1, max: 65_535 },
  // The Sentinel master has two replicas.
  '--sentinel-min-replicas': { min: 1, max: 2 },
  '--zk-tick-ms': { min: 10, max: 60_000, unit: 'ms' },
  '--ready-timeout-ms': { min: 1, max: 3_600_000, unit: 'ms' },
  // hunt: tries in one budget (a try takes seconds: 100,000 are days).
  '--budget-runs': { min: 1, max: 100_000 },
  // shrink: re-runs of each candidate, failures among them to keep it, candidates in all.
  '--runs': { min: 1, max: 100 },
  '--min-fails': { min: 1, max: 100 },
  '--max-candidates': { min: 1, max: 10_000 },
  // hunt's own names for the shrink it runs after a violation.
  '--shrink-runs': { min: 1, max: 100 },
  '--shrink-min-fails': { min: 1, max: 100 },
  '--shrink-max-candidates': { min: 1, max: 10_000 },
  '--shrink': { min: 0, max: 100 },
  // npm run queues: seeds a safe matrix cell is weighed by (its own and n - 1 more).
  '--weigh': { min: 2, max: 100 },
  // hunt: the failure rate, in percent, that its clean tested tries must rule out (0.1 %: about 3,000 of them).
  '--until-ruled-out': { min: 0.1, max: 95, integer: false, unit: '%' },
  // Clusters at once, one a slot (core/cluster/slots.ts); the machine may afford fewer (src/cli/parallel-flag.ts).
  '--parallel': { min: 1, max: MAX_SLOTS },
} as const satisfies Record<string, NumberRange>;

export type RangedFlag = keyof typeof FLAG_RANGES;

/** The parser of a numeric flag: its range of FLAG_RANGES, plain decimals only. */
export function numberFlag(flag: RangedFlag): (text: string) => number {
  return parseInRange(flag, FLAG_RANGES[flag]);
}

/** A numeric flag's help with its range: "seconds per run [1..86400 s]". */
export function withRange(help: string, range: NumberRange): string {
  return `${help} [${rangeHelp(range)}]`;
}

/** A seed: what the PRNG takes (core/random/prng.ts), 0 to 2^53 - 1, checked before any cluster starts. */
export function seedFlag(flag: '--seed' | '--first-seed') {
  return numberFlag(flag);
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
      value = parseStrictJson(text) as Value;
    } catch (err) {
      const duplicate = err instanceof SyntaxError && err.message.startsWith('Duplicate key') ? ` (${err.message})` : '';
      throw new UsageError(
        `Expected \`${flag}\` to be JSON (e.g. 0, null, "x"), got \`${shown}\`${duplicate}`,
        duplicate ? 'Give each key of an object once.' : 'Quote strings twice in the shell: --init \'"x"\'.',
      );
    }
    // The same bounds as a history's values: no rounded integers, no Infinity, no nesting that overflows the stack.
    const problem = jsonTextProblem(text);
    if (problem !== null) throw new UsageError(`Expected \`${flag}\` to be ${problem.expected}, got ${problem.found} at character ${problem.offset + 1}`);
    return value;
  };
}
