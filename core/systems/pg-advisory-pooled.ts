/** pg-advisory-pooled: the advisory lock through PgBouncer (transaction pooling), the PostgreSQL behind it started too. */
import type { LockSystem } from './lock-system.js';
import type { ServerSystem } from './server-system.js';
import { PG_SESSION_LOCK } from './pg-session-lock.js';

export const pgAdvisoryPooled: LockSystem = {
  servers: ['pgbouncer', 'pg-advisory'],
  connectsTo: 'pgbouncer',
  token: 'monotonic',
  sessionLock: PG_SESSION_LOCK,
};

/** PgBouncer in front of pgl1 (transaction pooling), in its own namespace, as teams deploy it; it refuses root, as PostgreSQL does. */
export const pgbouncerServer: ServerSystem = { layout: { count: 1, stem: 'pgb', base: 75, ports: { client: 6432 } }, runsAs: 'postgres', pools: 'pg-advisory' };
