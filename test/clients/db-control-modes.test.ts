/**
 * The database's own concurrency control as resource modes (version,
 * for-update): the exact statements each access carries, and how a client
 * runs a transaction that spans two accesses: rollback on a rejection or an
 * error, `fail` for any error before the COMMIT, `info` only for the COMMIT.
 * The same SQL runs against a real PostgreSQL in
 * test/integration/db-control-modes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { failed, indeterminate } from '../../runtime/clients/op-error.js';
import { accessStatements, SQL } from '../../runtime/clients/resource-modes.js';
import { runStatements, type Transaction } from '../../runtime/clients/run-statements.js';
import { FakeDb } from './fake-db.js';

const read = (mode: 'version' | 'for-update') => accessStatements(mode, 'read', 'k');

describe('version', () => {
  it('reads data and version, and writes only where the version is the one read, bumping it', () => {
    expect(read('version')).toEqual([{ sql: SQL.versionRead, params: ['k'], rejectIfNoRow: 'no-row', readOnly: true }]);
    expect(accessStatements('version', 'write', 'k', 42, 7)).toEqual([{ sql: SQL.versionWrite, params: ['k', '42', '7'], rejectIfNoRow: 'version-changed' }]);
    expect(SQL.versionWrite).toBe('UPDATE files SET data = $2, version = version + 1 WHERE key = $1 AND version = $3 RETURNING fence, version');
  });

  it('has no write without the version a read returned: nothing is sent', async () => {
    expect(accessStatements('version', 'write', 'k', 42)).toEqual([]);
    await expect(runStatements(new FakeDb(), [], undefined)).rejects.toMatchObject({ type: 'fail', code: 'not-applicable' });
  });

  it('answers the version; a write whose row moved on is a definite rejection, version-changed', async () => {
    const db = new FakeDb([{ rows: [{ data: '41', fence: '0', version: '7' }] }, { rows: [], rowCount: 0 }]);
    expect(await runStatements(db, read('version'), undefined)).toEqual({ type: 'ok', outcome: 'accepted', value: 41, fence: 0, version: 7 });
    expect(await runStatements(db, accessStatements('version', 'write', 'k', 42, 7), undefined)).toEqual({
      type: 'fail',
      outcome: 'rejected',
      error: 'version-changed',
    });
  });
});

describe('for-update', () => {
  it('the read opens a transaction and locks the row; the write checks it is still in it, updates, commits', () => {
    expect(read('for-update')).toEqual([
      { sql: 'BEGIN', params: [], rejectIfNoRow: 'no-row', control: 'begin' },
      { sql: 'SELECT data, fence FROM files WHERE key = $1 FOR UPDATE', params: ['k'], rejectIfNoRow: 'no-row', readOnly: true },
    ]);
    expect(accessStatements('for-update', 'write', 'k', 42)).toEqual([
      { sql: SQL.inTransaction, params: [], rejectIfNoRow: 'transaction-lost', readOnly: true },
      { sql: SQL.write, params: ['k', '42'], rejectIfNoRow: 'no-row' },
      { sql: 'COMMIT', params: [], rejectIfNoRow: 'no-row', control: 'commit' },
    ]);
  });

  it('a section: BEGIN and COMMIT are not row-counted, the transaction is open between the two accesses', async () => {
    const tx: Transaction = { open: false };
    const db = new FakeDb([
      { rows: [], rowCount: 0 },
      { rows: [{ data: '5', fence: '0' }] },
      { rows: [{ in_transaction: 1 }] },
      { rows: [{ fence: '0' }] },
      { rows: [], rowCount: 0 },
    ]);
    expect(await runStatements(db, read('for-update'), undefined, tx)).toEqual({ type: 'ok', outcome: 'accepted', value: 5, fence: 0 });
    expect(tx.open).toBe(true);
    expect(await runStatements(db, accessStatements('for-update', 'write', 'k', 6), undefined, tx)).toEqual({ type: 'ok', outcome: 'accepted', fence: 0 });
    expect(tx.open).toBe(false);
    expect(db.statements.map(([s]) => s)).toEqual(['BEGIN', SQL.lockRead, SQL.inTransaction, SQL.write, 'COMMIT']);
  });

  it('a write outside the transaction (the server ended the session, the client reconnected) is rejected: transaction-lost, rolled back', async () => {
    const tx: Transaction = { open: true };
    const db = new FakeDb([{ rows: [], rowCount: 0 }]);
    expect(await runStatements(db, accessStatements('for-update', 'write', 'k', 6), undefined, tx)).toEqual({
      type: 'fail',
      outcome: 'rejected',
      error: 'transaction-lost',
    });
    expect(db.statements.map(([s]) => s)).toEqual([SQL.inTransaction, 'ROLLBACK']);
    expect(tx.open).toBe(false);
  });

  it('an error before the COMMIT is a definite fail (the UPDATE may have run, but it never commits), and rolls back', async () => {
    const tx: Transaction = { open: true };
    const db = new FakeDb([{ rows: [{ in_transaction: 1 }] }, indeterminate('timeout', 'no answer')]);
    await expect(runStatements(db, accessStatements('for-update', 'write', 'k', 6), undefined, tx)).rejects.toMatchObject({ type: 'fail', code: 'timeout' });
    expect(db.statements.map(([s]) => s)).toEqual([SQL.inTransaction, SQL.write, 'ROLLBACK']);
  });

  it('the COMMIT itself may have happened when its answer is lost: info, and nothing is rolled back', async () => {
    const tx: Transaction = { open: true };
    const db = new FakeDb([{ rows: [{ in_transaction: 1 }] }, { rows: [{ fence: '0' }] }, indeterminate('connection-lost', 'gone')]);
    await expect(runStatements(db, accessStatements('for-update', 'write', 'k', 6), undefined, tx)).rejects.toMatchObject({
      type: 'info',
      code: 'connection-lost',
    });
    expect(db.statements.map(([s]) => s)).toEqual([SQL.inTransaction, SQL.write, 'COMMIT']);
  });

  it('a read that waited too long for the row lock (statement_timeout) fails and ends its transaction', async () => {
    const tx: Transaction = { open: false };
    const db = new FakeDb([{ rows: [], rowCount: 0 }, failed('statement-timeout', 'canceling statement due to statement timeout')]);
    await expect(runStatements(db, read('for-update'), undefined, tx)).rejects.toMatchObject({ type: 'fail', code: 'statement-timeout' });
    expect(db.statements.map(([s]) => s)).toEqual(['BEGIN', SQL.lockRead, 'ROLLBACK']);
    expect(tx.open).toBe(false);
  });

  it('a transaction a section left open is rolled back before the next one begins', async () => {
    const tx: Transaction = { open: true };
    const db = new FakeDb([{ rows: [] }, { rows: [], rowCount: 0 }, { rows: [{ data: '1', fence: '0' }] }]);
    expect(await runStatements(db, read('for-update'), undefined, tx)).toMatchObject({ type: 'ok', value: 1 });
    expect(db.statements.map(([s]) => s)).toEqual(['ROLLBACK', 'BEGIN', SQL.lockRead]);
  });

  it('needs no token: with a lock or without one, the statements bind nothing', async () => {
    const all = [
      ...read('for-update'),
      ...accessStatements('for-update', 'write', 'k', 1),
      ...read('version'),
      ...accessStatements('version', 'write', 'k', 1, 0),
    ];
    expect(all.flatMap((s) => s.params).filter((p) => typeof p === 'object' && p !== null)).toEqual([]);
  });
});
