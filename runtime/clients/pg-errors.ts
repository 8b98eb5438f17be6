/**
 * The error table of one PostgreSQL statement (node-postgres), each statement
 * on its own (autocommit).
 */
import pg from 'pg';
import { failed, indeterminate, messageOf, OpError } from './op-error.js';
import { CallTimeoutError } from './time.js';

/** SQLSTATE query_canceled: statement_timeout fired on the server. */
const QUERY_CANCELED = '57014';

export function pgOpError(err: unknown): OpError {
  if (err instanceof OpError) return err;
  const msg = messageOf(err);
  if (err instanceof pg.DatabaseError) {
    // statement_timeout: the server cancelled our statement and rolled it back.
    if (err.code === QUERY_CANCELED) return failed('statement-timeout', msg, err);
    // Any other error the server sent for our statement: an autocommit statement that errs is rolled back.
    return failed(`pg-${err.code ?? 'error'}`, msg, err);
  }
  // node-postgres refuses to send on a client that is closed or broke earlier.
  if (/not queryable/.test(msg)) return failed('not-connected', msg, err);
  // query_timeout (ours or node-postgres's): the statement was sent and may still commit.
  if (err instanceof CallTimeoutError || msg === 'Query read timeout') return indeterminate('timeout', msg, err);
  // The connection ended with the statement in flight: it may have committed.
  return indeterminate('connection-lost', msg, err);
}
