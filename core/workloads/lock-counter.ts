/** lock-counter: each section reads the counter and writes it plus one; the final read says whether an acknowledged increment was lost (Kleppmann's figure). */
import type { Workload } from './workload.js';

export const LOCK_COUNTER: Workload = {
  name: 'lock-counter',
  question: 'is any acknowledged increment of the counter lost?',
  checkers: ['lost-updates', 'stale-writes', 'interleaved-sections', 'grant-tokens', 'mutual-exclusion', 'access-stats', 'section-cost'],
  accessesResource: true,
  counter: true,
  lockIsTheSubject: false,
  lateWritesDecide: true,
  writeValue: () => null,
};
