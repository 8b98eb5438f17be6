/**
 * The protected resource's SQL, one strategy per resource mode, exactly as
 * docs/lock-workloads.md gives it (the contract): one row per key in
 *
 *   files (key text PRIMARY KEY, data text NOT NULL, fence bigint NOT NULL DEFAULT 0, mark text)
 *
 * | mode                 | read                                   | write                                      |
 * |----------------------|----------------------------------------|--------------------------------------------|
 * | none                 | SELECT data                            | UPDATE SET data                            |
 * | fence                | SELECT data                            | UPDATE SET data, fence = t WHERE fence <= t |
 * | fence-claim          | UPDATE SET fence = t WHERE fence <= t RETURNING data | as fence                     |
 * | cas-unique           | (mark: UPDATE SET mark = u) SELECT data | UPDATE SET data WHERE mark = u            |
 * | cas-unique-nonatomic | as cas-unique                          | SELECT WHERE mark = u, then UPDATE SET data |
 *
 * `<=`, not `<`: one holder may access the resource more than once under its
 * token. Statements return `fence` where they can, so answers carry the
 * resource's fence after the access. The unique value `u` of the cas modes
 * is the token as text (what the runner records as mark's value).
 *
 * The runner builds each access's statements (`accessStatements`) and sends
 * them in the request; the client binds its own token and runs them
 * (run-statements.ts). So the SQL lives in one place, and a client in another
 * language runs it without knowing the modes (docs/client-protocol.md).
 *
 * Outcomes: 0 rows updated is a definite rejection (`fail`, outcome
 * `rejected`). A failed SELECT is a definite `fail` too, whatever the error:
 * a read changes nothing, so not getting its answer is as if it never ran.
 * Other errors come from the Db as OpErrors (pg-errors.ts).
 *
 * Values: `data` is text. A number is stored as its decimal text and an
 * integer's decimal text reads back as a number, so lock-counter's counter
 * round-trips as a number; any other text reads back as it is.
 */
import type { Value } from '../../src/history/op.js';
import type { Token } from './lock-client.js';
import type { AccessOp, AccessOutcome, Statement } from './protocol.js';
import type { ResourceMode } from '../vocabulary.js';

export const SQL = {
  createTable: 'CREATE TABLE IF NOT EXISTS files (key text PRIMARY KEY, data text NOT NULL, fence bigint NOT NULL DEFAULT 0, mark text)',
  resetRow: 'INSERT INTO files (key, data, fence, mark) VALUES ($1, $2, 0, NULL) ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data, fence = 0, mark = NULL',
  read: 'SELECT data, fence FROM files WHERE key = $1',
  write: 'UPDATE files SET data = $2 WHERE key = $1 RETURNING fence',
  fencedWrite: 'UPDATE files SET data = $2, fence = $3 WHERE key = $1 AND fence <= $3 RETURNING fence',
  claimRead: 'UPDATE files SET fence = $2 WHERE key = $1 AND fence <= $2 RETURNING data, fence',
  mark: 'UPDATE files SET mark = $2 WHERE key = $1 RETURNING fence',
  casWrite: 'UPDATE files SET data = $2 WHERE key = $1 AND mark = $3 RETURNING fence',
  readMark: 'SELECT mark FROM files WHERE key = $1 AND mark = $2',
} as const;

export type Row = Record<string, unknown>;

/** One statement on the resource; failures are thrown as OpErrors (already mapped to fail / info). */
export interface Db {
  query(text: string, values: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number }>;
}

/** What one access did, as the answer reports it. */
export interface Access {
  type: 'ok' | 'fail' | 'info';
  value?: Value;
  outcome: AccessOutcome;
  fence?: number;
  error?: string;
}

/** A Value as the `data` column stores it. */
export function dataText(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return v === null ? '' : JSON.stringify(v);
}

/** The `data` column as a Value: an exact integer's decimal text as a number, other text as it is. */
export function dataValue(text: unknown): Value {
  const s = String(text ?? '');
  return /^-?(0|[1-9]\d*)$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : s;
}

/** The fence column (pg returns bigint as text) as a number when exact. */
export function fenceOf(row: Row | undefined): number | undefined {
  const n = Number(row?.['fence'] ?? NaN);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A token as the fence's bigint parameter, or undefined when it is not a non-negative integer (Redlock's random value). */
export function fenceParam(token: Token | undefined): string | undefined {
  if (typeof token === 'number') return Number.isSafeInteger(token) && token >= 0 ? String(token) : undefined;
  return typeof token === 'string' && /^\d+$/.test(token) ? token : undefined;
}

const FENCE = { token: 'fence' } as const;
const UNIQUE = { token: 'unique' } as const;

const select: Statement = { sql: SQL.read, params: [], rejectIfNoRow: 'no-row', readOnly: true };

/**
 * The statements of one access in one mode, for the row `key` (the value
 * only for writes). Empty when the access does not apply (mark outside the
 * cas modes): the client answers `fail not-applicable` without sending
 * anything.
 */
export function accessStatements(mode: ResourceMode, op: AccessOp, key: string, value: Value = null): Statement[] {
  const k = (s: Omit<Statement, 'params'> & { params: Statement['params'] }): Statement => ({ ...s, params: [key, ...s.params] });
  const data = dataText(value);
  if (op === 'final-read') return [k(select)];
  if (op === 'mark') return mode === 'cas-unique' || mode === 'cas-unique-nonatomic' ? [k({ sql: SQL.mark, params: [UNIQUE], rejectIfNoRow: 'no-row' })] : [];
  if (op === 'read') return [mode === 'fence-claim' ? k({ sql: SQL.claimRead, params: [FENCE], rejectIfNoRow: 'fenced' }) : k(select)];
  switch (mode) {
    case 'none':
      return [k({ sql: SQL.write, params: [data], rejectIfNoRow: 'no-row' })];
    case 'fence':
    case 'fence-claim':
      return [k({ sql: SQL.fencedWrite, params: [data, FENCE], rejectIfNoRow: 'fenced' })];
    case 'cas-unique':
      return [k({ sql: SQL.casWrite, params: [data, UNIQUE], rejectIfNoRow: 'mark-changed' })];
    case 'cas-unique-nonatomic':
      // Check, then act, in two round trips: another holder's mark can land in between (the point of this mode).
      return [k({ sql: SQL.readMark, params: [UNIQUE], rejectIfNoRow: 'mark-changed', readOnly: true }), k({ sql: SQL.write, params: [data], rejectIfNoRow: 'no-row' })];
  }
}
