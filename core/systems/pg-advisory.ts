/** pg-advisory: PostgreSQL's session advisory lock on the lock's own PostgreSQL. */
import type { LockSystem } from './lock-system.js';
import { PG_SESSION_LOCK } from './pg-session-lock.js';

export const pgAdvisory: LockSystem = { servers: ['pg-advisory'], connectsTo: 'pg-advisory', token: 'monotonic', sessionLock: PG_SESSION_LOCK };
