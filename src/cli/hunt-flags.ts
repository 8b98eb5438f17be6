/**
 * The flag parsers of `fencecheck hunt` and `fencecheck shrink` (UsageErrors,
 * exit 254, each with a hint): a budget of time (`10m`, `90s`, `1h`), fault
 * kind lists.
 */
import { UsageError } from '../../core/errors.js';
import { FAULT_KINDS, type FaultKind } from '../../core/generator/faults/registry.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `--budget`'s range: at least one second (a try takes seconds), at most a week (a timer's limit is 24.8 days). */
export const BUDGET_RANGE_MS = { min: 1000, max: 7 * 24 * 3_600_000 } as const;

/**
 * A duration flag's parser (`--budget 10m`): a number and a unit (ms, s, m, h;
 * a bare number is seconds), nothing around it, a whole number of
 * milliseconds within BUDGET_RANGE_MS; refused naming `flag`, with `hint`.
 */
export function durationFlag(flag: string, hint: string): (text: string) => number {
  return (text) => {
    const m = /^(\d{1,15}(?:\.\d{1,6})?)(ms|s|m|h)?$/.exec(text);
    const ms = m ? Number(m[1]) * UNIT_MS[m[2] ?? 's']! : NaN;
    if (!Number.isFinite(ms)) throw new UsageError(`Expected \`${flag}\` to be a duration such as 10m, 90s or 1h, got \`${text}\``, hint);
    if (!Number.isInteger(ms) || ms < BUDGET_RANGE_MS.min || ms > BUDGET_RANGE_MS.max)
      throw new UsageError(`Expected \`${flag}\` to be a whole number of milliseconds from 1s to 168h, got \`${text}\``, hint);
    return ms;
  };
}

/** `--budget 10m`: hunt's and shrink's budget of time. */
export const budgetDuration = durationFlag(
  '--budget',
  'Give a duration from 1s to 168h (a week), such as 10m, 90s or 1.5h, with no spaces; or --budget-runs N for a number of tries.',
);

/** `--faults client-pause,delay`: fault kinds, none unknown. */
export function faultKinds(text: string): FaultKind[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const f of items)
    if (!(FAULT_KINDS as readonly string[]).includes(f))
      throw new UsageError(
        `Expected \`--faults\` to list fault kinds among ${FAULT_KINDS.join(', ')}, got \`${f}\``,
        'Leave --faults out to hunt with every kind that applies to the target.',
      );
  if (items.length === 0) throw new UsageError('Expected `--faults` to name at least one fault kind, got none', `Name some of ${FAULT_KINDS.join(', ')}.`);
  return items as FaultKind[];
}
