/**
 * How a shrink decides that a plan still fails (pure), and the rate as its
 * lines say it. By default the sequential test (sequential-decision.ts): the
 * original re-run until its rate is known well enough, each candidate until
 * it is clearly as reproducible or clearly less. `--runs K` / `--min-fails k`
 * ask for the fixed rule instead, with the meaning they always had: K re-runs,
 * kept at k failures. Giving a number of re-runs is asking for that many, so
 * the flags keep their word and the better rule needs no flag at all.
 */
import {
  boostTest,
  decideCandidate,
  decideFixed,
  decideOriginal,
  originalRate,
  sequentialTest,
  SEQUENTIAL,
  type Tally,
  type Verdict,
} from '../hunt/sequential-decision.js';
import { formatRate, rateJson } from '../hunt/reproduction-rate.js';
import { CONFIRM, confirmationVerdict } from '../hunt/confirm-find.js';

export { formatRate, rateJson };

export interface ReproduceRule {
  /** The rule as shrink.json records it. */
  json: Record<string, unknown>;
  /** The original's re-runs so far: keep = shrink it, drop = not shrunk. */
  original(t: Tally): Verdict;
  /** The candidates' decision, once the original's re-runs are in; `said`: the log line that states it. */
  candidates(original: Tally): { decide: (t: Tally) => Verdict; said: string | null };
  /**
   * The test of a boost (a change meant to make the plan fail more often) against the plan's re-runs so far, or
   * null when the rule tries none: the fixed rule (its K and k are the user's word), or a plan already failing
   * often enough.
   */
  boost(current: Tally): { decide: (t: Tally) => Verdict; said: string } | null;
  /** Why the original is not shrunk (the original's verdict was drop), a Hint line last. */
  notShrunk(original: Tally): string[];
  /**
   * The shrunk plan's last re-runs, or null when the rule makes none: the sequential test may keep a candidate on
   * 2 failures of 2, so where the original met the find's bar (4 of 5 re-runs, confirm-find.ts) the shrunk plan is
   * re-run to that bar too and its rate is quoted on the same footing as the find's. The fixed rule's K and k are
   * the user's word: none.
   */
  shrunk(original: Tally): { decide: (t: Tally) => Verdict; said: string } | null;
}

/** The fixed rule's numbers when only one of `--runs` / `--min-fails` is given. */
export const FIXED_DEFAULT = Object.freeze({ runs: 5, minFails: 4 });

/** Fixed when either number is given, else sequential. */
export function reproduceRule(o: { runs?: number | undefined; minFails?: number | undefined }): ReproduceRule {
  if (o.runs === undefined && o.minFails === undefined) return sequentialRule();
  const runs = o.runs ?? FIXED_DEFAULT.runs;
  return fixedRule(runs, o.minFails ?? Math.min(FIXED_DEFAULT.minFails, runs));
}

export function fixedRule(runs: number, minFails: number): ReproduceRule {
  const decide = (t: Tally): Verdict => decideFixed(runs, minFails, t);
  return {
    json: { kind: 'fixed', K: runs, k: minFails },
    original: decide,
    candidates: () => ({ decide, said: null }),
    boost: () => null,
    notShrunk: (t) => [
      `not shrunk: the original plan reproduced ${formatRate(t)}, at least ${minFails} of ${runs} needed`,
      'Hint: a failure this rare needs more re-runs to confirm a smaller plan: try --runs 10 --min-fails 3, or hunt again.',
    ],
    shrunk: () => null,
  };
}

export function sequentialRule(): ReproduceRule {
  const s = SEQUENTIAL;
  return {
    json: { kind: 'sequential', ...s },
    original: decideOriginal,
    candidates: (original) => {
      const test = sequentialTest(originalRate(original));
      return {
        decide: (t) => decideCandidate(test, t),
        said: `shrink: each candidate is re-run until it clearly fails about as often as the original (${percent(test.asGood)}) or clearly less (${percent(test.clearlyLess)}), at most ${test.maxRuns} times`,
      };
    },
    boost: (current) => {
      const test = boostTest(originalRate(current));
      if (test === undefined) return null;
      return {
        decide: (t) => decideCandidate(test, t),
        said: `shrink: first making it fail more often (a longer fault, a wider delay or jump, one client fewer), each change kept only when it clearly fails more often (${percent(test.asGood)}) than now (${percent(test.clearlyLess)})`,
      };
    },
    notShrunk: (t) => [
      `not shrunk: the original plan reproduced ${formatRate(t)}: too rare to confirm a smaller plan (at least ${s.originalMinFails} of ${s.originalMaxRuns} needed)`,
      `Hint: hunt again for a plan that fails more often, or confirm candidates by a fixed rule: --runs 20 --min-fails ${s.originalMinFails}.`,
    ],
    shrunk: (original) =>
      metBar(original)
        ? {
            decide: confirmationVerdict,
            said: `shrink: the shrunk plan re-run to the bar its find met (${CONFIRM.minFails} of ${CONFIRM.runs} re-runs failing)`,
          }
        : null,
  };
}

/** Failed at least 4 times with no more misses than 4 of 5 allows (a re-run under way when the bar was met may add one). */
function metBar(t: Tally): boolean {
  return confirmationVerdict(t) === 'keep' && t.of - t.fails <= CONFIRM.runs - CONFIRM.minFails;
}

function percent(p: number): string {
  return `${Math.round(p * 100)}%`;
}
