/** mutex: clients only take and release the lock; the run asks whether two ever held it at once (Jepsen's lock tests). */
import type { Workload } from './workload.js';

export const MUTEX: Workload = {
  name: 'mutex',
  question: 'does the lock ever have two holders at once?',
  checkers: ['mutual-exclusion', 'mutex-linearizable', 'access-stats', 'section-cost'],
  accessesResource: false,
  counter: false,
  lockIsTheSubject: true,
  lateWritesDecide: false,
  withoutLock: 'the mutex workload judges the lock itself',
  writeValue: () => null,
};
