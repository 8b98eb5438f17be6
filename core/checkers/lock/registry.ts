/**
 * Which checkers judge which lock workload (docs/lock-workloads.md). The
 * order is the order of the report: the data-safety checkers first, the
 * counts last. Run them with `runCheckers` (verdict.ts).
 */
import { accessStatsChecker } from './access-stats.js';
import { grantTokensChecker } from './grant-tokens.js';
import { interleavedSectionsChecker } from './interleaved-sections.js';
import { lostUpdatesChecker } from './lost-updates.js';
import { mutexLinearizableChecker } from './mutex-linearizable.js';
import { mutualExclusionChecker } from './mutual-exclusion.js';
import { sectionCostChecker } from './section-cost.js';
import { staleWritesChecker } from './stale-writes.js';
import type { LockChecker, LockWorkload } from './verdict.js';

export function checkersFor(workload: LockWorkload): LockChecker[] {
  switch (workload) {
    case 'mutex':
      return [mutualExclusionChecker, mutexLinearizableChecker, accessStatsChecker, sectionCostChecker];
    case 'lock-counter':
      return [lostUpdatesChecker, staleWritesChecker, interleavedSectionsChecker, grantTokensChecker, mutualExclusionChecker, accessStatsChecker, sectionCostChecker];
    case 'fenced-write':
      return [staleWritesChecker, interleavedSectionsChecker, grantTokensChecker, mutualExclusionChecker, accessStatsChecker, sectionCostChecker];
  }
}
