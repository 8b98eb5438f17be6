/**
 * Mutual exclusion as the clients saw it: no two processes may believe they
 * hold the lock at the same instant (holds.ts says when a hold starts and
 * ends). Two definite holds of different processes that overlap are a
 * `double-hold`, one anomaly per overlapping pair, and the verdict is false.
 *
 * A maybe-hold (an `info` or unanswered acquire) may or may not have been
 * granted. Its process normally never acts again (rule 4), so nothing was
 * done under it: it cannot break mutual exclusion as clients see it, and it
 * is only counted (`idleMaybeHolds`), or every run with one acquire timeout
 * would be 'unknown'. A maybe-hold under which the process went on acting
 * (it accessed the resource or released, in a history that breaks rule 4)
 * is a real possibility: an overlap involving one is a `maybe-double-hold`,
 * and the verdict is 'unknown' unless a definite double hold makes it false.
 */
import type { History } from '../../history/op.js';
import type { Hold, HoldEnd } from './holds.js';
import { holdsOf } from './holds.js';
import { describeToken, indexesOf } from './lock-ops.js';
import { ms, verdict, type Anomaly, type CheckerVerdict, type LockChecker } from './verdict.js';
import { workloadOf } from '../../workloads/registry.js';
import { foreignReleases } from './foreign-releases.js';

const NAME = 'mutual-exclusion';

export const mutualExclusionChecker: LockChecker = {
  name: NAME,
  // Reported for every workload; it decides only where the lock itself is the subject.
  decides: (context) => workloadOf(context.workload).lockIsTheSubject,
  check(history: History): CheckerVerdict {
    const { holds } = holdsOf(history);
    const acting = holds.filter((h) => h.definite || h.accesses.length > 0 || h.release !== undefined);
    const definiteHolds = acting.filter((h) => h.definite).length;
    const stats = {
      definiteHolds,
      maybeHolds: holds.length - definiteHolds,
      idleMaybeHolds: holds.length - acting.length,
      doubleHolds: 0,
      maybeDoubleHolds: 0,
      // Releases that removed another holder's lock (foreign-releases.ts): the cause of a double hold that no expiry explains.
      foreignReleases: foreignReleases(history).length,
    };
    const definite: Anomaly[] = [];
    const maybe: Anomaly[] = [];
    for (const [a, b] of overlappingPairs(acting)) {
      if (a.definite && b.definite) definite.push(doubleHold(a, b));
      else maybe.push(doubleHold(a, b));
    }
    stats.doubleHolds = definite.length;
    stats.maybeDoubleHolds = maybe.length;
    if (definite.length > 0) {
      const foreign =
        stats.foreignReleases > 0 ? `; ${stats.foreignReleases} release(s) removed another holder's lock (the next waiter was granted at once)` : '';
      return verdict(NAME, false, `${definite.length} double hold(s): two processes held the lock at once${foreign}`, [...definite, ...maybe], stats);
    }
    if (maybe.length > 0) {
      return verdict(NAME, 'unknown', `no definite double hold, but ${maybe.length} overlap(s) involve acquires that may not have been granted`, maybe, stats);
    }
    return verdict(NAME, true, `no two of ${acting.length} holds overlapped (${stats.idleMaybeHolds} unanswered acquires never acted)`, [], stats);
  },
};

/** Every pair of holds of different processes whose open intervals intersect, earlier start first. */
function overlappingPairs(holds: readonly Hold[]): [Hold, Hold][] {
  const sorted = [...holds].sort((a, b) => a.start - b.start);
  const pairs: [Hold, Hold][] = [];
  let active: Hold[] = [];
  for (const h of sorted) {
    // Touching intervals (a release invoked at the instant the next acquire returned) do not overlap.
    active = active.filter((a) => a.end > h.start);
    if (h.end > h.start) {
      for (const a of active) if (a.process !== h.process) pairs.push([a, h]);
      active.push(h);
    }
  }
  return pairs;
}

const ENDED_BY: Record<HoldEnd, string> = {
  release: 'its release',
  'next-acquire': 'its next acquire',
  retired: 'it gave up on an indeterminate op',
  'end-of-history': 'the end of the history',
};

function describeHold(h: Hold): string {
  const how = h.definite ? 'held the lock' : 'may have held the lock (its acquire was not answered ok)';
  return `p${h.process} ${how} with ${describeToken(h.token)} from ${ms(h.start)} to ${ms(h.end)} (${ENDED_BY[h.endedBy]})`;
}

function doubleHold(a: Hold, b: Hold): Anomaly {
  const start = Math.max(a.start, b.start);
  const end = Math.min(a.end, b.end);
  const both = a.definite && b.definite ? 'both held it' : 'both may have held it';
  return {
    kind: a.definite && b.definite ? 'double-hold' : 'maybe-double-hold',
    message: `${describeHold(a)}, and ${describeHold(b)}: ${both} from ${ms(start)} to ${ms(end)}.`,
    processes: [a.process, b.process],
    tokens: [a.token, b.token].filter((t) => t !== undefined),
    window: { start, end },
    opIndexes: [a, b].flatMap((h) => [...indexesOf(h.acquire), ...(h.release ? indexesOf(h.release) : [])]),
  };
}
