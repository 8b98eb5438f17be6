/** Every workload by name (a new one is its module plus one line here; the type over the names asks for it). */
import { FENCED_WRITE } from './fenced-write.js';
import { JOBS } from './jobs.js';
import { LOCK_COUNTER } from './lock-counter.js';
import { MUTEX } from './mutex.js';
import type { LockWorkload, Workload } from './workload.js';

export type { LockWorkload, Workload } from './workload.js';

const REGISTRY: Record<LockWorkload, Workload> = { mutex: MUTEX, 'lock-counter': LOCK_COUNTER, 'fenced-write': FENCED_WRITE, jobs: JOBS };

/** The workloads in the order the CLI lists them. */
export const WORKLOADS: readonly LockWorkload[] = Object.keys(REGISTRY) as LockWorkload[];

export function workloadOf(name: LockWorkload): Workload {
  return REGISTRY[name];
}
