/** pg-advisory-pooled: the advisory lock through PgBouncer (transaction pooling), the PostgreSQL behind it started too. */
import type { LockSystem } from './lock-system.js';
import { PG_SESSION_LOCK } from './pg-session-lock.js';

export const pgAdvisoryPooled: LockSystem = {
  servers: ['pgbouncer', 'pg-advisory'],
  connectsTo: 'pgbouncer',
  token: 'monotonic',
  sessionLock: PG_SESSION_LOCK,
};
