/** fenced-write: each section writes its own value under its token; the run asks whether a write landed after its writer's lock had passed on. */
import type { Workload } from './workload.js';

export const FENCED_WRITE: Workload = {
  name: 'fenced-write',
  question: "does a write land after its writer's lock passed on?",
  checkers: ['stale-writes', 'interleaved-sections', 'grant-tokens', 'mutual-exclusion', 'access-stats', 'section-cost'],
  accessesResource: true,
  counter: false,
  lockIsTheSubject: false,
  lateWritesDecide: true,
  withoutLock: "the fenced-write workload judges writes against the lock's hand-overs",
  writeValue: (client, seq) => `p${client}-${seq}`,
};
