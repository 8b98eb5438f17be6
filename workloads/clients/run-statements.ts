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
 * answer's value is the last row's `data` column and its fence the `fence`
 * column, when the last statement returns them.
 */
import type { Token } from './lock-client.js';
import { failed, OpError } from './op-error.js';
import type { Statement, StatementParam } from './protocol.js';
import { dataValue, fenceOf, fenceParam, type Access, type Db, type Row } from './resource-modes.js';

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

export async function runStatements(db: Db, statements: readonly Statement[], token: Token | undefined): Promise<Access> {
  // Only the cas modes mark the resource, for instance; nothing is sent.
  if (statements.length === 0) throw failed('not-applicable', 'this access has no statement in this resource mode');
  const bound = statements.map((s) => ({ s, values: s.params.map((p) => bindParam(p, token)) }));
  let last: Row | undefined;
  for (const { s, values } of bound) {
    let r: { rows: Row[]; rowCount: number };
    try {
      r = await db.query(s.sql, values);
    } catch (err) {
      if (s.readOnly && err instanceof OpError && err.type === 'info') throw failed(err.code, `a read has no effect: ${err.message}`, err);
      throw err;
    }
    // 0 rows matched the statement's condition: the resource rejected the access, atomically, and nothing changed.
    if (r.rowCount === 0) return { type: 'fail', outcome: 'rejected', error: s.rejectIfNoRow };
    last = r.rows[0];
  }
  const fence = fenceOf(last);
  return {
    type: 'ok',
    outcome: 'accepted',
    ...(last && 'data' in last ? { value: dataValue(last['data']) } : {}),
    ...(fence !== undefined ? { fence } : {}),
  };
}
