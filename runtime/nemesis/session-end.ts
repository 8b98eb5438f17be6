/**
 * The session-end fault's I/O: end the sessions that hold an advisory lock on
 * a PostgreSQL lock node (`pg_terminate_backend`), as `idle_session_timeout`
 * or an operator would. Only a session holding a granted advisory lock is
 * ended: the lock's holder (behind PgBouncer, the pooled server connection
 * that took it), never a waiter's, the harness's or the resource's (another
 * server).
 */
import { UnsupportedFaultError } from '../hosts/cluster-errors.js';
import type { ServerHandle } from '../hosts/driver.js';
import { query } from '../hosts/postgres-session.js';
import { PG_SESSION_LOCK } from '../../core/systems/pg-session-lock.js';

/** The statement (docs/cluster.md quotes it). */
export const END_LOCK_SESSIONS_SQL =
  "SELECT pid, pg_terminate_backend(pid) AS ended FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()";

/** What one strike did: the backends' pids it ended (empty: nobody held an advisory lock then). */
export interface SessionsEnded {
  pids: number[];
}

export async function endLockSessions(node: ServerHandle): Promise<SessionsEnded> {
  if (node.backend !== PG_SESSION_LOCK.server) {
    throw new UnsupportedFaultError(
      `No session-end fault on ${node.name}: it is a ${node.backend} node, whose locks are not sessions.`,
      'Run session-end on pg-advisory or pg-advisory-pooled.',
    );
  }
  const rows = await query<{ pid: number; ended: boolean }>(node.plan, END_LOCK_SESSIONS_SQL);
  return { pids: rows.filter((r) => r.ended).map((r) => r.pid) };
}
