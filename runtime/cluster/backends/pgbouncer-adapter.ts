/** pgbouncer: PgBouncer in front of the advisory lock's PostgreSQL (pgbouncer.ts) and its reset. */
import type { BackendAdapter } from './backend-adapter.js';
import { pgbouncerSpec } from './pgbouncer.js';
import { pgbouncerReset } from './pg-advisory-reset.js';

export const pgbouncerAdapter: BackendAdapter = { spec: () => pgbouncerSpec(), reset: pgbouncerReset };
