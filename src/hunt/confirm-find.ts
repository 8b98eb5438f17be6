/**
 * A find confirmed before it is reported: the violating try's plan re-run on
 * the same (warm) cluster until its reproduction rate is known well enough to
 * say whether a person can work from it (issue #33).
 *
 * The rule is the shrink's fixed one at its old default, 4 of 5: re-run until
 * 4 re-runs failed the way the find did (a violation with each of its failure
 * signs), or until 4 can no longer be reached. A find that makes it is
 * *reproducible* and ends the hunt; one that does not is a *rare failure*:
 * still a real violation (its history proves it), reported with its rate,
 * interval, failing run and replay, while the hunt goes on looking for a more
 * reproducible find within its budget (unless `--first`). Why 4 of 5: the
 * issue's bar for a find a user can fix from ("reproduced at least 4 of 5"),
 * and at most 5 re-runs (a minute or so on a warm cluster) per find.
 *
 * The re-runs count toward the shrink that follows: its own measurement of
 * the original plan goes on from them (runShrink's `originalRuns`).
 */
import type { RunOptions } from '../../core/plan/run-options.js';
import { decideFixed, type Tally, type Verdict } from './sequential-decision.js';
import { failsLikeOriginal, failureSigns } from './failure-signs.js';
import type { NearMiss } from './near-miss.js';
import type { RunHooks } from '../run/run-lock-test.js';
import type { HuntDeps } from './hunt-deps.js';
import { Lanes } from './lanes.js';
import { reRunUntilDecided } from './re-run-until-decided.js';
import { formatRate } from './reproduction-rate.js';

export const CONFIRM = Object.freeze({ runs: 5, minFails: 4 });

/** A find's re-runs: how many failed as it did, of how many, and the first that did. */
export interface Confirmation extends Tally {
  failingRun: string | null;
  /** Re-runs the tool could not make (counted as not failing: a rate is never raised by a failure to run). */
  errors: number;
}

/** Reproducible (4 of 5 failed), rare, or still undecided (an interrupted confirmation). */
export function confirmationVerdict(t: Tally): Verdict {
  return decideFixed(CONFIRM.runs, CONFIRM.minFails, t);
}

export function isReproducible(t: Tally | undefined): boolean {
  return t !== undefined && confirmationVerdict(t) === 'keep';
}

/**
 * What the confirmations of one hunt share: the hunt has its answer once one find is reproducible (it ends
 * the hunt), or once the hunt ended otherwise (`ended`); then no confirmation starts another re-run.
 */
export class HuntFinds {
  private reproducible = false;

  constructor(private readonly ended: () => boolean = () => false) {}

  get decided(): boolean {
    return this.reproducible || this.ended();
  }

  markReproducible(): void {
    this.reproducible = true;
  }
}

/**
 * How a find ranks by its re-runs: a reproducible one above every other, then by its rate; unmeasured (-1)
 * below any measured. A confirmation stopped early (its hunt ended at another find) may show a high rate over
 * a run or two; it still ranks below a find the rule kept.
 */
export function reproductionRank(t: Tally | undefined): number {
  if (t === undefined || t.of === 0) return -1;
  return (isReproducible(t) ? 2 : 0) + t.fails / t.of;
}

/** The find's rate line in a hunt's outcome; `rareTail`: what a rare find's line adds. */
export function rateLines(t: Tally | undefined, rareTail: string): string[] {
  if (t === undefined) return [];
  const verdict = confirmationVerdict(t);
  if (verdict === 'keep') return [`  reproduced ${formatRate(t)} re-runs: a reproducible find`];
  if (verdict === 'undecided')
    return [
      `  reproduced ${formatRate(t)} re-runs: undecided (its re-runs were stopped before ${CONFIRM.minFails} of ${CONFIRM.runs} was reached or ruled out)`,
    ];
  return [
    `  reproduced ${formatRate(t)} re-runs: a RARE failure (below ${CONFIRM.minFails} of ${CONFIRM.runs}); still a violation its history proves: ${rareTail}`,
  ];
}

/** What a finished confirmation makes of its find, for the hunt's log; `ended`: the hunt had its answer meanwhile (another find confirmed, or the hunt ended). */
export function confirmationSaid(t: Tally, ended: boolean, first: boolean): string {
  const verdict = confirmationVerdict(t);
  if (verdict === 'keep') return 'a reproducible find';
  if (verdict === 'undecided') return ended ? 'undecided: its re-runs were stopped, the hunt having ended' : 'undecided: its re-runs were stopped';
  return first ? 'a rare failure' : 'a rare failure; looking on for a more reproducible one';
}

/**
 * Re-runs `options` (the violating try's) with the hunt's `hooks` until the rule decides, as many at once as
 * `lanes` has free (first in line for them: a find's rate before the search's next try); `name` prefixes each
 * re-run's directory. Stops early when asked to stop (Ctrl-C), or starts no more re-runs once `finds` is
 * decided (another lane's find was confirmed: a second confirmation would only keep the hunt and its shrink
 * waiting); what was measured so far is returned.
 */
export async function confirmFind(
  options: RunOptions,
  miss: NearMiss | null,
  deps: HuntDeps,
  hooks: RunHooks,
  name: string,
  lanes: Lanes = new Lanes(1),
  finds: HuntFinds = new HuntFinds(),
): Promise<Confirmation> {
  const signs = failureSigns(miss);
  return confirmByReRuns(
    async (n, lane) => {
      const { runDir } = await deps.runTry({ ...options, name: `${name}-confirm-${n}` }, hooks, lane);
      // A re-run cut short by Ctrl-C says nothing either way.
      if (deps.stopped()) return null;
      const { outcome, miss: again } = await deps.readTry(runDir, options);
      return { failed: failsLikeOriginal(outcome, again, signs), runDir };
    },
    deps,
    lanes,
    finds,
  );
}

/**
 * The confirmation's rule over any re-run (a lock try's, a queue try's): `reRun(n, lane)` says whether the n-th
 * re-run failed as the find did (null: cut short by Ctrl-C); one that fails to run counts as not failing.
 */
export async function confirmByReRuns(
  reRun: (n: number, lane: number) => Promise<{ failed: boolean; runDir: string } | null>,
  deps: { stopped(): boolean; log(line: string): void },
  lanes: Lanes,
  finds: HuntFinds = new HuntFinds(),
): Promise<Confirmation> {
  let errors = 0;
  const { tally } = await reRunUntilDecided(
    { fails: 0, of: 0, failingRun: null },
    confirmationVerdict,
    async (n, lane) => {
      // Asked for while the hunt still looked on, given a lane once it had its answer: not run at all.
      if (finds.decided) return null;
      try {
        return await reRun(n, lane);
      } catch (err) {
        if (deps.stopped()) return null;
        errors++;
        deps.log(`hunt: a confirmation re-run failed to run (${err instanceof Error ? err.message : String(err)}); counted as not failing`);
        return { failed: false, runDir: null };
      }
    },
    // Re-runs under way when the hunt gets its answer still count (they ran to their end); only Ctrl-C voids them.
    {
      lanes,
      stopped: () => deps.stopped() || finds.decided,
      priority: 1,
      // A reproducible find ends the hunt: the other confirmations start nothing more from this moment.
      onDecided: (verdict) => {
        if (verdict === 'keep') finds.markReproducible();
      },
    },
  );
  return { ...tally, errors };
}
