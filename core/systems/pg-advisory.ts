/** pg-advisory: PostgreSQL's session advisory lock on the lock's own PostgreSQL. */
import type { LockSystem } from './lock-system.js';
import type { ServerSystem } from './server-system.js';
import { PG_SESSION_LOCK } from './pg-session-lock.js';

export const pgAdvisory: LockSystem = { servers: ['pg-advisory'], connectsTo: 'pg-advisory', token: 'monotonic', sessionLock: PG_SESSION_LOCK };

/** The advisory lock's PostgreSQL, apart from the resource's pg1: a lock and its resource on one server would share its faults. */
export const pgAdvisoryServer: ServerSystem = { layout: { count: 1, stem: 'pgl', base: 70, ports: { client: 5432 } }, runsAs: 'postgres' };
