/**
 * The lock checkers by name, and which judge a workload: the ones its module
 * names (core/workloads/), in its order, the order of the report (the
 * data-safety checkers first, the counts last). Run them with `runCheckers`
 * (verdict.ts).
 */
import { accessStatsChecker } from './access-stats.js';
import { grantTokensChecker } from './grant-tokens.js';
import { jobsChecker } from './jobs.js';
import { interleavedSectionsChecker } from './interleaved-sections.js';
import { lostUpdatesChecker } from './lost-updates.js';
import { mutexLinearizableChecker } from './mutex-linearizable.js';
import { mutualExclusionChecker } from './mutual-exclusion.js';
import { sectionCostChecker } from './section-cost.js';
import { staleWritesChecker } from './stale-writes.js';
import type { LockChecker, LockWorkload } from './verdict.js';
import { workloadOf } from '../../workloads/registry.js';

const BY_NAME: Record<string, LockChecker> = Object.fromEntries(
  [
    lostUpdatesChecker,
    jobsChecker,
    staleWritesChecker,
    interleavedSectionsChecker,
    grantTokensChecker,
    mutualExclusionChecker,
    mutexLinearizableChecker,
    accessStatsChecker,
    sectionCostChecker,
  ].map((c) => [c.name, c]),
);

/** The checkers the workload names (core/workloads/), in its order. */
export function checkersFor(workload: LockWorkload): LockChecker[] {
  return workloadOf(workload).checkers.map((name) => {
    const c = BY_NAME[name];
    if (c === undefined) throw new RangeError(`workload ${workload} names the checker ${name}, which does not exist`);
    return c;
  });
}
