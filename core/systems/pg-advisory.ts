/** pg-advisory: PostgreSQL's session advisory lock on the lock's own PostgreSQL. */
import type { LockSystem } from './lock-system.js';

export const pgAdvisory: LockSystem = { servers: ['pg-advisory'], connectsTo: 'pg-advisory', token: 'monotonic' };
