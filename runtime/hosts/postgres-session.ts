/**
 * The harness's own PostgreSQL sessions: the superuser every node trusts on
 * the cluster's network, its URL, and one statement on a connection of its
 * own. Here, below the cluster and the nemesis, because both ask a node
 * something: the warm reset and its clean check (cluster/backends), the
 * session-end fault (nemesis/session-end.ts).
 */
import pg from 'pg';
import type { NodePlan } from '../../core/cluster/cluster-plan.js';

export const POSTGRES_USER = 'postgres';

/** `postgres://postgres@IP:5432/postgres` */
export function postgresUrl(node: NodePlan): string {
  return `postgres://${POSTGRES_USER}@${node.ip}:${node.port}/postgres`;
}

/** One statement on a node, on a connection of its own: its rows. */
export async function query<T extends pg.QueryResultRow>(node: NodePlan, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgresUrl(node), connectionTimeoutMillis: 2000, query_timeout: 2000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}
