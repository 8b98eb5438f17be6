/**
 * Re-runs of one plan, on as many lanes as are free, until a rule decides
 * (a find's confirmation, a shrink candidate, the original of a shrink).
 * Another re-run is started only while the rule would stay undecided if the
 * re-runs under way end as most did so far: k of K reached, or no longer
 * reachable, starts nothing more. With one lane this is the plain loop: run,
 * decide, run again.
 *
 * Re-runs that end after the rule decided (they were under way) are counted
 * in the rate, not in the verdict: the verdict is the rule's on the re-runs
 * that ended first, in the order they ended.
 */
import type { Lanes } from './lanes.js';
import type { Tally, Verdict } from './sequential-decision.js';

export interface ReRunTally extends Tally {
  failingRun: string | null;
}

/** One re-run's outcome: whether it failed as the original did, and its directory (none when it could not run). */
export interface ReRunOutcome {
  failed: boolean;
  runDir: string | null;
}

export interface ReRunOptions {
  lanes: Lanes;
  /** Stop starting re-runs (Ctrl-C); those under way are waited for. */
  stopped(): boolean;
  /** Over the search's tries for a free lane (a confirmation goes first). */
  priority?: number;
  /**
   * Called once, the moment the rule decides: before the deciding re-run gives its lane back, so a caller that
   * stops others on it (a hunt's other confirmations) does so before any of them takes that lane.
   */
  onDecided?(verdict: Verdict): void;
}

/**
 * `reRun(n, lane)`: the n-th re-run (1-based, after `start.of`), on `lane`; null when it was cut short and says
 * nothing (Ctrl-C); it throws to end the whole measurement (after the others under way have ended). Returns the
 * tally and the rule's verdict ('undecided' when stopped first).
 */
export async function reRunUntilDecided(
  start: ReRunTally,
  decide: (t: Tally) => Verdict,
  reRun: (n: number, lane: number) => Promise<ReRunOutcome | null>,
  o: ReRunOptions,
): Promise<{ tally: ReRunTally; verdict: Verdict }> {
  const tally: ReRunTally = { ...start };
  let verdict = decide(tally);
  let inFlight = 0;
  let launched = start.of;
  let failure: { err: unknown } | undefined;

  // Whether one more re-run is worth starting now: the rule stays undecided if those under way end as the runs so
  // far mostly did (a failure on a tie). Not "some outcome could leave it undecided": a candidate kept at 2 of 2
  // would then start a third as soon as its first ended, and wait a whole run for it (measured: a shrink on two
  // lanes as slow as on one). A guess that proves wrong only means the next re-run starts when the rule says so.
  const worthOneMore = (): boolean => {
    if (verdict !== 'undecided' || failure || o.stopped() || inFlight >= o.lanes.count) return false;
    const failing = tally.fails * 2 >= tally.of;
    return decide({ fails: tally.fails + (failing ? inFlight : 0), of: tally.of + inFlight }) === 'undecided';
  };

  const count = (r: ReRunOutcome | null): void => {
    if (r === null) return;
    tally.of++;
    if (r.failed) {
      tally.fails++;
      tally.failingRun ??= r.runDir;
    }
    if (verdict !== 'undecided') return;
    verdict = decide(tally);
    if (verdict !== 'undecided') o.onDecided?.(verdict);
  };

  await new Promise<void>((done) => {
    const settleIfIdle = (): void => {
      if (inFlight === 0 && !worthOneMore()) done();
    };
    const launch = (): void => {
      while (worthOneMore()) {
        inFlight++;
        const n = ++launched - start.of;
        void o.lanes
          // Counted inside the lane: the tally and verdict are current before the lane goes to the next waiter.
          .use(async (lane) => count(await reRun(n, lane)), o.priority ?? 0)
          .catch((err: unknown) => void (failure ??= { err }))
          .finally(() => {
            inFlight--;
            launch();
            settleIfIdle();
          });
      }
    };
    launch();
    settleIfIdle();
  });
  if (failure) throw failure.err;
  return { tally, verdict };
}
