/**
 * The protected resource's SQL, one strategy per resource mode, exactly as
 * docs/lock-workloads.md gives it (the contract): one row per key in
 *
 *   files (key text PRIMARY KEY, data text NOT NULL, fence bigint NOT NULL DEFAULT 0, mark text,
 *          version bigint NOT NULL DEFAULT 0)
 *
 * | mode                 | read                                   | write                                      |
 * |----------------------|----------------------------------------|--------------------------------------------|
 * | none                 | SELECT data                            | UPDATE SET data                            |
 * | fence                | SELECT data                            | UPDATE SET data, fence = t WHERE fence <= t |
 * | fence-claim          | UPDATE SET fence = t WHERE fence <= t RETURNING data | as fence                     |
 * | cas-unique           | (mark: UPDATE SET mark = u) SELECT data | UPDATE SET data WHERE mark = u            |
 * | cas-unique-nonatomic | as cas-unique                          | SELECT WHERE mark = u, then UPDATE SET data |
 * | version              | SELECT data, version                   | UPDATE SET data, version = version + 1 WHERE version = v |
 * | for-update           | BEGIN; SELECT data FOR UPDATE          | (in a transaction?) UPDATE SET data; COMMIT |
 *
 * The last two are the database's own concurrency control and need no token
 * (they run with any lock, or none: `--backend none`). `version`: `v` is the
 * version the section's read returned (the runner puts it in the write's
 * statement); a write whose row moved on matches no row, a definite
 * rejection (`version-changed`), and the workload retries the section.
 * `for-update`: one transaction per section, opened by the read and
 * committed by the write, so the row lock is held across the section's
 * work (its hold); a client paused in between keeps the lock until it wakes
 * or the server ends its session (`idle_in_transaction_session_timeout`).
 * The write first checks it is still inside that transaction (a transaction
 * id is assigned: SELECT … FOR UPDATE took one), so a client whose session
 * the server ended and that reconnected cannot write outside the lock
 * (`transaction-lost`). A fenced-write section in these modes reads first
 * too: the version to compare, the row to lock.
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
import type { Value } from '../../core/history/op.js';
// The token as the history has it (not lock-client.ts's, which imports the client runtime: a circle of types).
import type { Token } from '../../core/checkers/lock/lock-ops.js';
import type { AccessOp, AccessOutcome, Statement } from '../../core/client-protocol.js';
import type { ResourceMode } from '../../core/vocabulary.js';

export const SQL = {
  createTable:
    'CREATE TABLE IF NOT EXISTS files (key text PRIMARY KEY, data text NOT NULL, fence bigint NOT NULL DEFAULT 0, mark text, version bigint NOT NULL DEFAULT 0)',
  resetRow:
    'INSERT INTO files (key, data, fence, mark, version) VALUES ($1, $2, 0, NULL, 0) ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data, fence = 0, mark = NULL, version = 0',
  read: 'SELECT data, fence FROM files WHERE key = $1',
  write: 'UPDATE files SET data = $2 WHERE key = $1 RETURNING fence',
  fencedWrite: 'UPDATE files SET data = $2, fence = $3 WHERE key = $1 AND fence <= $3 RETURNING fence',
  claimRead: 'UPDATE files SET fence = $2 WHERE key = $1 AND fence <= $2 RETURNING data, fence',
  mark: 'UPDATE files SET mark = $2 WHERE key = $1 RETURNING fence',
  casWrite: 'UPDATE files SET data = $2 WHERE key = $1 AND mark = $3 RETURNING fence',
  readMark: 'SELECT mark FROM files WHERE key = $1 AND mark = $2',
  /** A table made before the version column existed gets it. */
  addVersion: 'ALTER TABLE files ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0',
  versionRead: 'SELECT data, fence, version FROM files WHERE key = $1',
  versionWrite: 'UPDATE files SET data = $2, version = version + 1 WHERE key = $1 AND version = $3 RETURNING fence, version',
  begin: 'BEGIN',
  lockRead: 'SELECT data, fence FROM files WHERE key = $1 FOR UPDATE',
  // pg_current_xact_id_if_assigned (PostgreSQL 13+) is NULL outside a transaction that took a row lock or wrote.
  inTransaction: 'SELECT 1 AS in_transaction WHERE pg_current_xact_id_if_assigned() IS NOT NULL',
  commit: 'COMMIT',
  rollback: 'ROLLBACK',
} as const;

export type Row = Record<string, unknown>;

/** One statement on the resource; failures are thrown as OpErrors (already mapped to fail / info). */
export interface Db {
  query(text: string, values: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number }>;
  /** End an open transaction after a failure (ROLLBACK on a live connection; a broken one the server rolls back). Default: ROLLBACK, errors ignored. */
  abort?(): Promise<void>;
}

/** What one access did, as the answer reports it. */
export interface Access {
  type: 'ok' | 'fail' | 'info';
  value?: Value;
  outcome: AccessOutcome;
  fence?: number;
  /** The row's version after the access (mode version). */
  version?: number;
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

/** A bigint column (pg returns bigint as text: fence, version) as a number when exact. */
export function bigintOf(row: Row | undefined, column: 'fence' | 'version'): number | undefined {
  const n = Number(row?.[column] ?? NaN);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The fence column as a number when exact. */
export function fenceOf(row: Row | undefined): number | undefined {
  return bigintOf(row, 'fence');
}

/** A token as the fence's bigint parameter, or undefined when it is not a non-negative integer (Redlock's random value). */
export function fenceParam(token: Token | undefined): string | undefined {
  if (typeof token === 'number') return Number.isSafeInteger(token) && token >= 0 ? String(token) : undefined;
  return typeof token === 'string' && /^\d+$/.test(token) ? token : undefined;
}

const FENCE = { token: 'fence' } as const;
const UNIQUE = { token: 'unique' } as const;

const select: Statement = { sql: SQL.read, params: [], rejectIfNoRow: 'no-row', readOnly: true };
const BEGIN: Statement = { sql: SQL.begin, params: [], rejectIfNoRow: 'no-row', control: 'begin' };
const COMMIT: Statement = { sql: SQL.commit, params: [], rejectIfNoRow: 'no-row', control: 'commit' };

/**
 * The statements of one access in one mode, for the row `key` (the value
 * only for writes). Empty when the access does not apply (mark outside the
 * cas modes): the client answers `fail not-applicable` without sending
 * anything.
 */
export function accessStatements(mode: ResourceMode, op: AccessOp, key: string, value: Value = null, readVersion?: number): Statement[] {
  const k = (s: Omit<Statement, 'params'> & { params: Statement['params'] }): Statement => ({ ...s, params: [key, ...s.params] });
  const data = dataText(value);
  if (op === 'final-read') return [k(select)];
  if (op === 'mark') return mode === 'cas-unique' || mode === 'cas-unique-nonatomic' ? [k({ sql: SQL.mark, params: [UNIQUE], rejectIfNoRow: 'no-row' })] : [];
  if (op === 'read') return readStatements(mode, key);
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
      return [
        k({ sql: SQL.readMark, params: [UNIQUE], rejectIfNoRow: 'mark-changed', readOnly: true }),
        k({ sql: SQL.write, params: [data], rejectIfNoRow: 'no-row' }),
      ];
    case 'version':
      // No read, no version to compare: nothing is sent (`not-applicable`); the runner always reads first.
      return readVersion === undefined ? [] : [k({ sql: SQL.versionWrite, params: [data, String(readVersion)], rejectIfNoRow: 'version-changed' })];
    case 'for-update':
      return [
        { sql: SQL.inTransaction, params: [], rejectIfNoRow: 'transaction-lost', readOnly: true },
        k({ sql: SQL.write, params: [data], rejectIfNoRow: 'no-row' }),
        COMMIT,
      ];
  }
}

function readStatements(mode: ResourceMode, key: string): Statement[] {
  if (mode === 'fence-claim') return [{ sql: SQL.claimRead, params: [key, FENCE], rejectIfNoRow: 'fenced' }];
  if (mode === 'version') return [{ sql: SQL.versionRead, params: [key], rejectIfNoRow: 'no-row', readOnly: true }];
  if (mode === 'for-update') return [BEGIN, { sql: SQL.lockRead, params: [key], rejectIfNoRow: 'no-row', readOnly: true }];
  return [{ ...select, params: [key] }];
}
