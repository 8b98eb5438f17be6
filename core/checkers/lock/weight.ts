/**
 * What a silence is worth (pure): N independent tries that each could have
 * shown a failure and none did rule out, with 95 % confidence, any failure
 * whose chance per try is at least 1 − 0.05^(1/N) (the exact form of the
 * "rule of three", about 3/N for large N; Antithesis calls the inverse
 * "findability"). Only tries that put the protection to the test count: a
 * try where no fault struck or the lock never failed could not have failed.
 *
 *   no violation in 20 tries, 57 dangerous moments tested: a failure that
 *   shows in at least 14 % of tries would have been found with 95 % confidence
 */

export const CONFIDENCE = 0.95;

/** The smallest per-try failure rate that `tries` clean tries rule out at `confidence`; null with no try. */
export function ruledOutRate(tries: number, confidence = CONFIDENCE): number | null {
  if (!(Number.isInteger(tries) && tries > 0)) return null;
  return 1 - (1 - confidence) ** (1 / tries);
}

/** A rate as a person reads it: two significant digits, `45 %`, `2.9 %`, `0.30 %`. */
export function formatPercent(rate: number): string {
  const p = 100 * rate;
  return `${p >= 10 ? Math.round(p) : Number(p.toPrecision(2)).toFixed(p >= 1 ? 1 : 2)} %`;
}

/**
 * The weight of `tries` clean tested tries with `moments` dangerous moments
 * among them (double holds, refusals: times the protection was needed), in
 * one line; `unit` names a try ("try", "run", "seed").
 */
export function formatWeight(tries: number, moments: number, unit = 'try'): string {
  const rate = ruledOutRate(tries);
  if (rate === null) return `no tested ${unit}: nothing ruled out`;
  const units = unit === 'try' ? 'tries' : `${unit}s`;
  const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  return (
    `no violation in ${count(tries, unit, units)}, ${count(moments, 'dangerous moment', 'dangerous moments')} tested: ` +
    `a failure that shows in at least ${formatPercent(rate)} of ${units} would have been found with ${Math.round(CONFIDENCE * 100)} % confidence`
  );
}

/** How many clean tested tries rule out every failure rate of at least `rate` (the inverse of ruledOutRate): 59 for 5 %. */
export function triesToRuleOut(rate: number, confidence = CONFIDENCE): number {
  if (!(rate > 0 && rate < 1)) throw new RangeError(`Expected a rate in (0, 1), got \`${rate}\``);
  return Math.ceil(Math.log(1 - confidence) / Math.log(1 - rate));
}
