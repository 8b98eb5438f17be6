/**
 * `--until-ruled-out P` (pure), for a lock hunt and a queue hunt alike: the
 * clean tested tries so far, whether they rule out every failure that shows
 * in at least P of tries (core/checkers/lock/weight.ts), and how far a hunt
 * got when its budget ended first.
 */
import { formatPercent, ruledOutRate, triesToRuleOut } from '../../core/checkers/lock/weight.js';

/** A try as these rules need it: its outcome. */
type Tried = { readonly outcome: string };

/** Tries that put the protection to the test and did not violate: what a silence's weight counts. */
export function testedClean(records: readonly Tried[]): number {
  return records.filter((r) => r.outcome === 'safe').length;
}

/** Whether the clean tested tries so far rule out every failure rate of at least `rate` (and no violation was found). */
export function ruledOut(records: readonly Tried[], rate: number): boolean {
  if (records.some((r) => r.outcome === 'unsafe' || r.outcome === 'other-violation')) return false;
  const bound = ruledOutRate(testedClean(records));
  return bound !== null && bound <= rate;
}

/** How far `--until-ruled-out` got: reached, or the tested tries it still lacked when the budget ended. */
export function untilRuledOutLine(records: readonly Tried[], rate: number): string {
  const tested = testedClean(records);
  const needed = triesToRuleOut(rate);
  if (ruledOut(records, rate)) return `until-ruled-out ${formatPercent(rate)}: reached with ${tested} tested tries`;
  const per = records.length === 0 ? 0 : tested / records.length;
  const more = needed - tested;
  return `until-ruled-out ${formatPercent(rate)}: NOT reached: ${tested} of the ${needed} tested tries it takes (${records.length} tries, ${Math.round(per * 100)} % of them tested); about ${per > 0 ? Math.ceil(more / per) : '?'} more tries at this rate`;
}
