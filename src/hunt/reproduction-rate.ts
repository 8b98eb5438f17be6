/**
 * A reproduction rate as fencecheck says it (pure): the re-runs of a failing
 * plan that failed again, of how many, with Wilson's 95 % interval, in the
 * lines a person reads (`4/5 (95% CI 38–96%)`) and in the files a program
 * reads (hunt.json, shrink.json). The hunt's confirmation of a find and the
 * shrink's decisions both say their rates this one way.
 */
import { wilsonInterval, type Interval } from '../../core/checkers/lock/rate-interval.js';
import type { Tally } from './sequential-decision.js';

/** A tally as the lines say it: `4/5 (95% CI 38–96%)`. */
export function formatRate(t: Tally): string {
  return `${t.fails}/${t.of} (95% CI ${intervalText(wilsonInterval(t.fails, t.of))})`;
}

/** A tally as a JSON file records it: the counts, the rate and Wilson's 95 % interval. */
export function rateJson(t: Tally): Tally & { rate: number | null; interval: Interval } {
  return { fails: t.fails, of: t.of, rate: t.of === 0 ? null : t.fails / t.of, interval: wilsonInterval(t.fails, t.of) };
}

function intervalText(i: Interval): string {
  return `${Math.round(i.low * 100)}–${Math.round(i.high * 100)}%`;
}
