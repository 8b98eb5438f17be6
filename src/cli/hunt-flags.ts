/**
 * The flag parsers of `fencecheck hunt` and `fencecheck shrink` (UsageErrors,
 * exit 254, each with a hint): a budget of time (`10m`, `90s`, `1h`), fault
 * kind lists.
 */
import { UsageError } from '../../core/errors.js';
import { FAULT_KINDS, type FaultKind } from '../../core/generator/nemesis-schedule.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `--budget 10m`: a positive duration; a bare number is seconds. */
export function budgetDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] ?? 's']! : NaN;
  if (!(Number.isFinite(ms) && ms > 0)) throw new UsageError(`Expected \`--budget\` to be a positive duration such as 10m, 90s or 1h, got \`${text}\``, 'A hunt needs time to try anything: give --budget 10m, or --budget-runs N for a number of tries.');
  return ms;
}

/** `--faults client-pause,delay`: fault kinds, none unknown. */
export function faultKinds(text: string): FaultKind[] {
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const f of items) if (!(FAULT_KINDS as readonly string[]).includes(f)) throw new UsageError(`Expected \`--faults\` to list fault kinds among ${FAULT_KINDS.join(', ')}, got \`${f}\``, 'Leave --faults out to hunt with every kind that applies to the target.');
  if (items.length === 0) throw new UsageError('Expected `--faults` to name at least one fault kind, got none', `Name some of ${FAULT_KINDS.join(', ')}.`);
  return items as FaultKind[];
}
