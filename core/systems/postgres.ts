/** postgres: the resource's PostgreSQL (pg1), started beside every lock service; no lock of its own. */
import type { ServerSystem } from './server-system.js';

export const postgresServer: ServerSystem = { layout: { count: 1, stem: 'pg', base: 50, ports: { client: 5432 } }, runsAs: 'postgres' };
