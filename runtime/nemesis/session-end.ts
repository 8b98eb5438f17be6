/**
 * The session-end fault's I/O: end the sessions that hold an advisory lock on
 * a PostgreSQL lock node (`pg_terminate_backend`), as `idle_session_timeout`
 * or an operator would. Only a session holding a granted advisory lock is
 * ended: the lock's holder (behind PgBouncer, the pooled server connection
 * that took it), never a waiter's, the harness's or the resource's (another
 * server).
 */
import pg from 'pg';
import { UnsupportedFaultError } from '../hosts/cluster-errors.js';
import type { ServerHandle } from '../hosts/driver.js';

/** The statement (pure; docs/faults.md quotes it). */
export const END_LOCK_SESSIONS_SQL =
  "SELECT pid, pg_terminate_backend(pid) AS ended FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()";

/** What one strike did: the backends' pids it ended (empty: nobody held an advisory lock then). */
export interface SessionsEnded {
  pids: number[];
}

const SESSION_SERVERS: readonly string[] = ['pg-advisory'];

export async function endLockSessions(node: ServerHandle, timeoutMs = 2000): Promise<SessionsEnded> {
  if (!SESSION_SERVERS.includes(node.backend)) {
    throw new UnsupportedFaultError(`No session-end fault on ${node.name}: it is a ${node.backend} node, whose locks are not sessions.`, 'Run session-end on pg-advisory or pg-advisory-pooled.');
  }
  // The harness's own session, as the warm reset's queries: user postgres, trusted on the cluster's network.
  const client = new pg.Client({ host: node.plan.ip, port: node.plan.port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const rows = (await client.query<{ pid: number; ended: boolean }>(END_LOCK_SESSIONS_SQL)).rows;
    return { pids: rows.filter((r) => r.ended).map((r) => r.pid) };
  } finally {
    await client.end().catch(() => undefined);
  }
}
