/** pg-advisory: the advisory lock's own PostgreSQL (postgres.ts, under its own name) and its reset. */
import type { BackendAdapter } from './backend-adapter.js';
import { postgresSpec } from './postgres.js';
import { pgAdvisoryReset } from './pg-advisory-reset.js';

export const pgAdvisoryAdapter: BackendAdapter = { spec: () => postgresSpec('pg-advisory'), reset: pgAdvisoryReset };
