/**
 * An access as a client runs it: the statements the request carries (built by
 * the runner, resource-modes.ts), in order, on the client's own connection,
 * with the client's current token bound where a parameter asks for it. This is
 * all a client in another language has to do for the resource
 * (docs/client-protocol.md).
 *
 * Outcomes: a statement matching no row rejects the access at once (`fail`,
 * outcome `rejected`, the statement's code), and nothing after it runs. A
 * read-only statement that fails is a definite `fail`, whatever the error: it
 * changed nothing. Any other error is the Db's OpError (fail or info). The
 * answer's value is the last row's `data` column, its fence the `fence`
 * column and its version the `version` column, when the last statement
 * returns them.
 *
 * Transactions (feature `transactions`): a `begin` statement opens one that
 * may outlive the access (for-update's read opens it, its write commits it);
 * the caller keeps the `Transaction` state between accesses. While one is
 * open, a rejection or error rolls it back before the answer, and an error
 * before the `commit` is a definite `fail`: nothing of the transaction
 * commits without its COMMIT, and the client never sends that COMMIT now.
 * Only the `commit` itself may be `info` (sent, answer lost).
 */
// The token as the history has it (not lock-client.ts's, which imports the client runtime: a circle of types).
import type { Token } from '../../core/checkers/lock/lock-ops.js';
import { failed, OpError } from './op-error.js';
import type { Statement, StatementParam } from '../../core/client-protocol.js';
import { bigintOf, dataValue, fenceParam, SQL, type Access, type Db, type Row } from './resource-modes.js';

/** Whether this connection has a transaction open (kept by the client across accesses). */
export interface Transaction {
  open: boolean;
}

/** A parameter with the token bound, as text; throws a `fail` (nothing sent) when the token does not fit. */
export function bindParam(p: StatementParam, token: Token | undefined): string | null {
  if (p === null || typeof p === 'string') return p;
  if (p.token === 'fence') {
    const t = fenceParam(token);
    // Checked before sending anything.
    if (t === undefined) throw failed('no-fencing-token', `token ${JSON.stringify(token ?? null)} is not a fencing token`);
    return t;
  }
  // Checked before sending anything.
  if (token === undefined) throw failed('no-token', 'no hold to mark under');
  return String(token);
}

export async function runStatements(db: Db, statements: readonly Statement[], token: Token | undefined, tx: Transaction = { open: false }): Promise<Access> {
  // Only the cas modes mark the resource, for instance; nothing is sent.
  if (statements.length === 0) throw failed('not-applicable', 'this access has no statement in this resource mode');
  const bound = statements.map((s) => ({ s, values: s.params.map((p) => bindParam(p, token)) }));
  // A transaction a previous section left open (it never wrote) must not absorb this one.
  if (tx.open && statements[0]!.control === 'begin') await abort(db, tx);
  let last: Row | undefined;
  for (const { s, values } of bound) {
    let r: { rows: Row[]; rowCount: number };
    try {
      if (s.control === 'commit') tx.open = false;
      r = await db.query(s.sql, values);
    } catch (err) {
      throw await failure(db, tx, s, err);
    }
    if (s.control === 'begin') tx.open = true;
    if (s.control !== undefined) continue;
    // 0 rows matched the statement's condition: the resource rejected the access, atomically, and nothing changed.
    if (r.rowCount === 0) {
      if (tx.open) await abort(db, tx);
      return { type: 'fail', outcome: 'rejected', error: s.rejectIfNoRow };
    }
    last = r.rows[0];
  }
  const fence = bigintOf(last, 'fence');
  const version = bigintOf(last, 'version');
  return {
    type: 'ok',
    outcome: 'accepted',
    ...(last && 'data' in last ? { value: dataValue(last['data']) } : {}),
    ...(fence !== undefined ? { fence } : {}),
    ...(version !== undefined ? { version } : {}),
  };
}

/** The error a failed statement answers with; an open transaction is rolled back first. */
async function failure(db: Db, tx: Transaction, s: Statement, err: unknown): Promise<unknown> {
  const inTransaction = tx.open;
  if (inTransaction) await abort(db, tx);
  if (!(err instanceof OpError) || err.type !== 'info') return err;
  if (s.readOnly) return failed(err.code, `a read has no effect: ${err.message}`, err);
  // Before its COMMIT, nothing of the transaction is committed, and its COMMIT is never sent now.
  if (inTransaction) return failed(err.code, `the transaction never committed: ${err.message}`, err);
  return err;
}

/** Roll back an open transaction (best effort: a broken connection's transaction dies with it). */
async function abort(db: Db, tx: Transaction): Promise<void> {
  tx.open = false;
  if (db.abort) await db.abort();
  else await db.query(SQL.rollback, []).catch(() => undefined);
}
