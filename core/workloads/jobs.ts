/** jobs: each section takes the next job of a stream (a counter's position) and records it done; the run asks whether a job was done twice or never ("fine for efficiency"). */
import type { Workload } from './workload.js';

export const JOBS: Workload = {
  name: 'jobs',
  question: 'is any job done twice, or lost?',
  checkers: ['jobs', 'stale-writes', 'interleaved-sections', 'grant-tokens', 'mutual-exclusion', 'access-stats', 'section-cost'],
  accessesResource: true,
  counter: true,
  lockIsTheSubject: false,
  lateWritesDecide: false,
  writeField: 'job',
  writeValue: () => null,
};
