/**
 * A shrink's re-runs of one plan (a lock run's or a queue run's), on as many
 * lanes as are free, until its rule keeps or drops the plan; each result kept
 * by plan, each decision logged with its rate. The original's re-run is
 * attempt 0 and no candidate: `--max-candidates N` logs candidates 1..N.
 * Ctrl-C: ShrinkInterrupted.
 */
import type { Tally, Verdict } from '../hunt/sequential-decision.js';
import { Lanes } from '../hunt/lanes.js';
import { reRunUntilDecided, type ReRunOutcome } from '../hunt/re-run-until-decided.js';
import { formatRate } from './reproduce-rule.js';

/** Ctrl-C during a shrink: it ends with the smallest plan confirmed so far. */
export class ShrinkInterrupted extends Error {}

export type Reproduced = Tally & { verdict: Verdict; failingRun: string | null };

export interface ReproducerIo<P> {
  lanes: number;
  stopped(): boolean;
  log(line: string): void;
  describe(plan: P): string;
  /** The n-th re-run of `plan` (attempt numbers its directory) on `lane`: whether it failed as the original did. */
  reRun(plan: P, attempt: number, n: number, lane: number): Promise<ReRunOutcome>;
}

export function reproducer<P>(io: ReproducerIo<P>): {
  reproduce: (plan: P, decide: (t: Tally) => Verdict, from?: Tally & { failingRun: string | null }, name?: string) => Promise<Reproduced>;
  counts: Map<string, Reproduced>;
  attempts: () => number;
} {
  let attempt = -1;
  const counts = new Map<string, Reproduced>();
  const lanes = new Lanes(io.lanes);
  // `name`: what the log calls a plan that is neither the original nor a candidate (the shrunk plan's last re-runs).
  const reproduce = async (plan: P, decide: (t: Tally) => Verdict, from?: Tally & { failingRun: string | null }, name?: string): Promise<Reproduced> => {
    if (io.stopped()) throw new ShrinkInterrupted();
    const mine = ++attempt;
    // Re-runs side by side on the lanes (a candidate decided as soon as its rule can be, whatever is under way).
    const { tally, verdict } = await reRunUntilDecided(
      { fails: from?.fails ?? 0, of: from?.of ?? 0, failingRun: from?.failingRun ?? null },
      decide,
      async (n, lane) => {
        const r = await io.reRun(plan, mine, (from?.of ?? 0) + n, lane).catch((err: unknown) => {
          throw io.stopped() ? new ShrinkInterrupted() : err;
        });
        if (io.stopped()) throw new ShrinkInterrupted();
        return r;
      },
      { lanes, stopped: () => io.stopped() },
    );
    if (verdict === 'undecided') throw new ShrinkInterrupted();
    const result: Reproduced = { ...tally, verdict };
    const said =
      name !== undefined
        ? `${name}: ${io.describe(plan)}: failed ${formatRate(result)}: ${result.verdict === 'keep' ? 'reproducible' : 'rarer than that'}`
        : `${mine === 0 ? 'the original plan' : `candidate ${mine}`}: ${io.describe(plan)}: failed ${formatRate(result)}: ${mine === 0 ? (result.verdict === 'keep' ? 'shrinking' : 'too rare to shrink') : result.verdict === 'keep' ? 'kept' : 'dropped'}`;
    io.log(`shrink: ${said}`);
    counts.set(JSON.stringify(plan), result);
    return result;
  };
  return { reproduce, counts, attempts: () => attempt };
}
