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
 * | cas-unique-nonatomic | as cas-unique                          | SELECT mark, then if u: UPDATE SET data     |
 *
 * `<=`, not `<`: one holder may access the resource more than once under its
 * token. Statements return `fence` where they can, so answers carry the
 * resource's fence after the access. The unique value `u` of the cas modes
 * is the token as text (what the runner records as mark's value).
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
import { failed, OpError } from './op-error.js';
import type { AccessOutcome } from './protocol.js';
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
  readMark: 'SELECT mark FROM files WHERE key = $1',
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

export interface ModeSql {
  read(db: Db, key: string, token: Token | undefined): Promise<Access>;
  write(db: Db, key: string, value: Value, token: Token | undefined): Promise<Access>;
  mark(db: Db, key: string, token: Token | undefined): Promise<Access>;
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

const accepted = (row: Row | undefined, value?: Value): Access => ({ type: 'ok', outcome: 'accepted', ...(value !== undefined ? { value } : {}), ...(fenceOf(row) !== undefined ? { fence: fenceOf(row) } : {}) });
// 0 rows matched the statement's condition: the resource rejected the access, atomically, and nothing changed.
const rejected = (error: string): Access => ({ type: 'fail', outcome: 'rejected', error });

/** A SELECT: it changes nothing, so any failure (a timeout included) is a definite `fail`. */
async function readOnly(db: Db, text: string, values: readonly unknown[]): Promise<Row | undefined> {
  try {
    return (await db.query(text, values)).rows[0];
  } catch (err) {
    if (err instanceof OpError && err.type === 'info') throw failed(err.code, `a read has no effect: ${err.message}`, err);
    throw err;
  }
}

function needFence(token: Token | undefined): string {
  const t = fenceParam(token);
  // Checked before sending anything.
  if (t === undefined) throw failed('no-fencing-token', `token ${JSON.stringify(token ?? null)} is not a fencing token`);
  return t;
}

function needUnique(token: Token | undefined): string {
  // Checked before sending anything.
  if (token === undefined) throw failed('no-token', 'no hold to mark under');
  return String(token);
}

async function selectRead(db: Db, key: string): Promise<Access> {
  const row = await readOnly(db, SQL.read, [key]);
  return row ? accepted(row, dataValue(row['data'])) : rejected('no-row');
}

async function plainWrite(db: Db, key: string, value: Value): Promise<Access> {
  const r = await db.query(SQL.write, [key, dataText(value)]);
  return r.rowCount > 0 ? accepted(r.rows[0]) : rejected('no-row');
}

async function fencedWrite(db: Db, key: string, value: Value, token: Token | undefined): Promise<Access> {
  const r = await db.query(SQL.fencedWrite, [key, dataText(value), needFence(token)]);
  return r.rowCount > 0 ? accepted(r.rows[0]) : rejected('fenced');
}

async function claimRead(db: Db, key: string, token: Token | undefined): Promise<Access> {
  const r = await db.query(SQL.claimRead, [key, needFence(token)]);
  return r.rowCount > 0 ? accepted(r.rows[0], dataValue(r.rows[0]?.['data'])) : rejected('fenced');
}

async function mark(db: Db, key: string, token: Token | undefined): Promise<Access> {
  const r = await db.query(SQL.mark, [key, needUnique(token)]);
  return r.rowCount > 0 ? accepted(r.rows[0]) : rejected('no-row');
}

async function casWrite(db: Db, key: string, value: Value, token: Token | undefined): Promise<Access> {
  const r = await db.query(SQL.casWrite, [key, dataText(value), needUnique(token)]);
  return r.rowCount > 0 ? accepted(r.rows[0]) : rejected('mark-changed');
}

/** Check, then act, in two round trips: another holder's mark can land in between (the point of this mode). */
async function nonatomicCasWrite(db: Db, key: string, value: Value, token: Token | undefined): Promise<Access> {
  const u = needUnique(token);
  const row = await readOnly(db, SQL.readMark, [key]);
  if (!row) return rejected('no-row');
  if (row['mark'] !== u) return rejected('mark-changed');
  return plainWrite(db, key, value);
}

async function noMark(): Promise<Access> {
  // Only the cas modes mark the resource; nothing is sent.
  throw failed('not-applicable', 'mark is for the cas-unique modes');
}

export const MODES: Record<ResourceMode, ModeSql> = {
  none: { read: selectRead, write: plainWrite, mark: noMark },
  fence: { read: selectRead, write: fencedWrite, mark: noMark },
  'fence-claim': { read: claimRead, write: fencedWrite, mark: noMark },
  'cas-unique': { read: selectRead, write: casWrite, mark },
  'cas-unique-nonatomic': { read: selectRead, write: nonatomicCasWrite, mark },
};

/** The final read (any mode): the data at the end. */
export const finalRead = selectRead;
