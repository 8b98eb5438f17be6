/** postgres: the resource's PostgreSQL (postgres.ts) and its reset. */
import type { BackendAdapter } from './backend-adapter.js';
import { postgresSpec } from './postgres.js';
import { postgresReset } from './postgres-reset.js';

export const postgresAdapter: BackendAdapter = { spec: () => postgresSpec(), reset: postgresReset };
