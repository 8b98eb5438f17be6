/**
 * PostgreSQL: no client connection of an earlier run left (a statement of a
 * dead client still running would write into the next run). The resource row
 * itself is reset by every run (prepareResource), warm or fresh.
 */
import { query } from '../../hosts/postgres-session.js';
import { messageOf, type BackendReset } from '../../hosts/driver.js';

const OTHERS = "FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()";

export const postgresReset: BackendReset = {
  async reset({ nodes }) {
    await Promise.all(nodes.map((n) => query(n, `SELECT pg_terminate_backend(pid) ${OTHERS}`)));
  },
  async check({ nodes }) {
    const problems = await Promise.all(
      nodes.map(async (n) => {
        try {
          const [row] = await query<{ n: string }>(n, `SELECT count(*) AS n ${OTHERS}`);
          return Number(row?.n) === 0 ? undefined : `${n.name}: ${row?.n} client connections left`;
        } catch (err) {
          return `${n.name}: not answering (${messageOf(err)})`;
        }
      }),
    );
    return problems.filter((p): p is string => p !== undefined);
  },
};
