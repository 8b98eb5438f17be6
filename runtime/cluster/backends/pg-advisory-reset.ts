/**
 * PostgreSQL as a lock service (pg-advisory) and PgBouncer in front of it.
 * A session-level advisory lock lives as long as the server session that
 * took it: ending every client session of an earlier run (as the resource's
 * reset does) releases them all, and the clean check asks pg_locks that no
 * advisory lock is left. PgBouncer keeps no lock state of its own (its
 * pooled server connections are those sessions, ended above, which it
 * reopens on demand); its check is that it still answers a query through
 * its pool.
 */
import { messageOf, type BackendReset } from '../../hosts/driver.js';
import { postgresReset } from './postgres-reset.js';
import { query } from '../../hosts/postgres-session.js';

export const pgAdvisoryReset: BackendReset = {
  reset: (ctx) => postgresReset.reset(ctx),
  async check(ctx) {
    const left = await Promise.all(
      ctx.nodes.map(async (n) => {
        try {
          const [row] = await query<{ n: string }>(n, "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'");
          const locks = Number(row?.n);
          return locks === 0 ? undefined : `${n.name}: ${locks} advisory lock(s) still held`;
        } catch (err) {
          return `${n.name}: not answering (${messageOf(err)})`;
        }
      }),
    );
    return [...(await postgresReset.check(ctx)), ...left.filter((p): p is string => p !== undefined)];
  },
};

export const pgbouncerReset: BackendReset = {
  async reset() {
    // Nothing of its own: the sessions behind it are ended by pg-advisory's reset.
  },
  async check({ nodes }) {
    const problems = await Promise.all(
      nodes.map(async (n) => {
        try {
          const [row] = await query<{ n: number }>(n, 'SELECT 1 AS n');
          return row?.n === 1 ? undefined : `${n.name}: SELECT 1 through the pool gave no row`;
        } catch (err) {
          return `${n.name}: not answering through its pool (${messageOf(err)})`;
        }
      }),
    );
    return problems.filter((p): p is string => p !== undefined);
  },
};
