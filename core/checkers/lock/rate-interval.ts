/**
 * How sure a measured rate is (pure): the 95 % interval of a proportion
 * seen k times in n tries, and of a mean over seeds.
 *
 * Wilson's score interval, not the normal approximation: with the small
 * counts a lock run gives (a few duplicates in a few hundred jobs, often
 * none) the normal interval goes below 0 and collapses to [0, 0] at k = 0,
 * claiming certainty a zero count does not give; Wilson's upper bound at
 * k = 0 is about 3.8 / n, close to the rule of three.
 *
 * Jobs within one run are not independent (one pause can duplicate several
 * in a row), so over several seeds the spread between seeds is reported too:
 * Student's t interval of the per-seed rates, the honest width when
 * duplicates come in bursts.
 */

export interface Interval {
  low: number;
  high: number;
}

const Z95 = 1.959964;

/** Wilson's 95 % score interval of k successes in n tries; [0, 1] when n is 0 (nothing measured). */
export function wilsonInterval(k: number, n: number): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Student's t quantile (two-sided 95 %) for 1..30 degrees of freedom; beyond, the normal's. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 95 % t interval of the mean of `values` (clamped at 0: a rate is never negative); undefined under two values. */
export function meanInterval(values: readonly number[]): (Interval & { mean: number }) | undefined {
  const n = values.length;
  if (n < 2) return undefined;
  const mean = values.reduce((t, v) => t + v, 0) / n;
  const variance = values.reduce((t, v) => t + (v - mean) ** 2, 0) / (n - 1);
  const half = (T95[n - 2] ?? Z95) * Math.sqrt(variance / n);
  return { mean, low: Math.max(0, mean - half), high: mean + half };
}

/** A proportion per 1,000, to one decimal: `7.3`. */
export function perThousand(p: number): string {
  return (Math.round(p * 10_000) / 10).toFixed(1);
}
