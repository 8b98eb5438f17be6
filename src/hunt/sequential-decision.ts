/**
 * Whether a shrink candidate fails as often as the original (pure): Wald's
 * sequential probability ratio test, decided after every re-run. A plan that
 * fails in most runs is settled in two or three; one that fails in a third of
 * them can still be confirmed, where a fixed "4 of 5" keeps such a candidate
 * about one time in twenty and a lenient "1 of 5" keeps one that fails 1 in 20
 * nearly a quarter of the time.
 *
 * "As reproducible as the original" is H1: the candidate fails at the
 * original's rate r; "clearly less" is H0: at r / 4. Each re-run adds its log
 * likelihood ratio; the candidate is kept when the sum reaches
 * log((1 − β) / α) and dropped at log(β / (1 − α)). α = 0.1 is the chance of
 * keeping a candidate four times rarer: such a keep shows, since the shrunk
 * plan's rate is printed. β = 0.05 is the chance of dropping one as good: that
 * error is silent (the shrink just ends larger) and a shrink asks the
 * question up to 40 times. r is floored at 15 % (below it r / 4 is nearly
 * "never", and one lucky failure would keep a candidate) and capped at 90 %
 * (at 100 %, one passing re-run would drop a candidate that fails 9 in 10).
 *
 * At most 12 re-runs a candidate: a rare failure's sum drifts slowly, and
 * 40 candidates of a 10 s run must fit in an afternoon. At the cap the rate
 * decides: kept when it is at least the geometric midpoint of r and r / 4
 * (r / 2, half-way on the ratio scale), so a candidate that goes on failing is
 * not dropped for want of runs.
 *
 * The original is re-run until it has failed 4 times, or 16 runs. The
 * failure that ended the count is not counted in r, as the find itself is
 * not: a count that stops at its 4th failure overstates the rate ((f − 1) /
 * (n − 1) is Haldane's unbiased estimate for such inverse sampling), and an
 * overstated r drops candidates as good as the original. Fewer than 2
 * failures in 16 (under 1 in 8) is too rare to shrink: no 12-run test tells
 * such a rate from a quarter of it. The keep and drop rates and the runs this
 * takes are measured in test/hunt/sequential-decision.test.ts.
 */

/** `fails` of `of` re-runs failed the way the original did. */
export interface Tally {
  fails: number;
  of: number;
}

/** After a re-run: keep (the original: shrink it), drop (the original: too rare to shrink), or run again. */
export type Verdict = 'keep' | 'drop' | 'undecided';

export const SEQUENTIAL = Object.freeze({
  /** The original's re-runs end at this many failures ... */
  originalFails: 4,
  /** ... or after this many runs. */
  originalMaxRuns: 16,
  /** Fewer failures than this in `originalMaxRuns`: too rare to shrink. */
  originalMinFails: 2,
  /** The rate candidates are held to, at least and at most. */
  floor: 0.15,
  ceiling: 0.9,
  /** "Clearly less reproducible": this many times rarer. */
  ratio: 4,
  /** The chance of keeping a candidate `ratio` times rarer. */
  alpha: 0.1,
  /** The chance of dropping a candidate as reproducible as the original. */
  beta: 0.05,
  /** Re-runs of one candidate at most. */
  maxRuns: 12,
  /**
   * A plan failing less often than this is first made to fail more often (a longer pause, a wider delay, one
   * client fewer: boostTest), before anything only makes it smaller: a shrink held to a rare rate spends up to
   * 12 re-runs on each candidate it drops, and the user who must fix the failure needs a plan that shows it.
   */
  boostBelow: 0.6,
  /** "Clearly more reproducible": this many times as often. */
  boostRatio: 2,
});

/** The original's re-runs so far: shrink it (keep), too rare (drop), or run it again. */
export function decideOriginal(t: Tally): Verdict {
  const s = SEQUENTIAL;
  if (t.fails >= s.originalFails) return 'keep';
  // The last runs could not bring it to the minimum: no need to run them.
  if (t.fails + (s.originalMaxRuns - t.of) < s.originalMinFails) return 'drop';
  if (t.of >= s.originalMaxRuns) return 'keep';
  return 'undecided';
}

/** The original's failure rate from its re-runs, the failure that ended the count not counted (module doc). */
export function originalRate(t: Tally): number {
  if (t.fails >= SEQUENTIAL.originalFails && t.of > 1) return (t.fails - 1) / (t.of - 1);
  return t.of === 0 ? 0 : t.fails / t.of;
}

/** The two hypotheses and the test's bounds for candidates of an original failing at `rate`. */
export interface SequentialTest {
  /** H1: the candidate fails this often (the original's rate, floored and capped). */
  asGood: number;
  /** H0: this often (`asGood / ratio`). */
  clearlyLess: number;
  /** Keep when the log likelihood ratio reaches this ... */
  keepAt: number;
  /** ... drop when it falls to this. */
  dropAt: number;
  maxRuns: number;
  /** At `maxRuns` undecided: kept when the rate is at least this (the geometric midpoint of the hypotheses). */
  midpoint: number;
}

export function sequentialTest(rate: number): SequentialTest {
  const asGood = Math.min(SEQUENTIAL.ceiling, Math.max(SEQUENTIAL.floor, rate));
  const clearlyLess = asGood / SEQUENTIAL.ratio;
  return waldTest(asGood, clearlyLess, Math.sqrt(asGood * clearlyLess));
}

/** Wald's test of H1 (fails at `asGood`) against H0 (at `clearlyLess`) with SEQUENTIAL's α, β and run cap. */
function waldTest(asGood: number, clearlyLess: number, midpoint: number): SequentialTest {
  const s = SEQUENTIAL;
  return {
    asGood,
    clearlyLess,
    keepAt: Math.log((1 - s.beta) / s.alpha),
    dropAt: Math.log(s.beta / (1 - s.alpha)),
    maxRuns: s.maxRuns,
    midpoint,
  };
}

/**
 * The test of a change meant to make a plan fail more often (the shrink's boosts): H1, the changed plan fails
 * `boostRatio` times as often as the current one (capped); H0, as often. Kept only when clearly more
 * reproducible: a boost that is merely as good makes the plan bigger for nothing. Undefined when the current
 * rate leaves no room (at or above `boostBelow`).
 */
export function boostTest(rate: number): SequentialTest | undefined {
  const s = SEQUENTIAL;
  if (rate >= s.boostBelow) return undefined;
  const now = Math.max(s.floor, rate);
  const better = Math.min(s.ceiling, now * s.boostRatio);
  // Undecided at the cap: kept only at the better rate. A boost kept on the midpoint would often be one as good
  // as the plan (16 % of them, simulated at 1 in 4), a bigger plan for nothing.
  return waldTest(better, now, better);
}

/** log P(tally | H1) / P(tally | H0): each failure adds log(p1 / p0), each pass log((1 − p1) / (1 − p0)). */
export function logLikelihoodRatio(test: SequentialTest, t: Tally): number {
  const { asGood: p1, clearlyLess: p0 } = test;
  return t.fails * Math.log(p1 / p0) + (t.of - t.fails) * Math.log((1 - p1) / (1 - p0));
}

/** A candidate's re-runs so far, against the original's test. */
export function decideCandidate(test: SequentialTest, t: Tally): Verdict {
  const llr = logLikelihoodRatio(test, t);
  if (llr >= test.keepAt) return 'keep';
  if (llr <= test.dropAt) return 'drop';
  // 1e-9: 2 of 12 is exactly the midpoint 1/6 of r = 1/3, and floating point must not decide it.
  if (t.of >= test.maxRuns) return t.fails / t.of >= test.midpoint - 1e-9 ? 'keep' : 'drop';
  return 'undecided';
}

/** The fixed rule (`--runs K --min-fails k`): kept at k failures of K, decided as soon as k is reached or out of reach. */
export function decideFixed(runs: number, minFails: number, t: Tally): Verdict {
  if (t.fails >= minFails) return 'keep';
  if (t.fails + (runs - t.of) < minFails || t.of >= runs) return 'drop';
  return 'undecided';
}
