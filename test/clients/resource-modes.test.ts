/**
 * The resource's SQL per mode, exactly as docs/lock-workloads.md gives it,
 * and what each result means: statements, parameters, outcomes, fences.
 */
import { describe, expect, it } from 'vitest';
import { failed, indeterminate } from '../../runtime/clients/op-error.js';
import { dataText, dataValue, fenceParam, SQL } from '../../runtime/clients/resource-modes.js';
import { Resource } from '../../runtime/clients/resource.js';
import { FakeDb, type Reply } from './fake-db.js';
import type { ResourceMode } from '../../core/vocabulary.js';

function resource(mode: ResourceMode, replies: Reply[] = []): { db: FakeDb; r: Resource } {
  const db = new FakeDb(replies);
  return { db, r: new Resource(db, mode, 'k') };
}

describe('the SQL of each mode', () => {
  it('none: SELECT to read, a plain UPDATE to write', async () => {
    const { db, r } = resource('none', [{ rows: [{ data: '41', fence: '0' }] }, { rows: [{ fence: '0' }] }]);
    expect(await r.read(7)).toEqual({ type: 'ok', outcome: 'accepted', value: 41, fence: 0 });
    expect(await r.write(42, 7)).toEqual({ type: 'ok', outcome: 'accepted', fence: 0 });
    expect(db.statements).toEqual([
      [SQL.read, ['k']],
      [SQL.write, ['k', '42']],
    ]);
    expect(SQL.write).toBe('UPDATE files SET data = $2 WHERE key = $1 RETURNING fence');
  });

  it('fence: reads are not fenced; a write sets fence = token where fence <= token', async () => {
    const { db, r } = resource('fence', [{ rows: [{ data: 'x', fence: '5' }] }, { rows: [{ fence: '7' }] }]);
    expect(await r.read(7)).toMatchObject({ type: 'ok', value: 'x', fence: 5 });
    expect(await r.write('p1-3', 7)).toEqual({ type: 'ok', outcome: 'accepted', fence: 7 });
    expect(db.statements[1]).toEqual([SQL.fencedWrite, ['k', 'p1-3', '7']]);
    expect(SQL.fencedWrite).toBe('UPDATE files SET data = $2, fence = $3 WHERE key = $1 AND fence <= $3 RETURNING fence');
  });

  it('fence: a write with a token below the stored fence matches 0 rows: rejected, a definite fail', async () => {
    const { r } = resource('fence', [{ rows: [], rowCount: 0 }]);
    expect(await r.write('late', 3)).toEqual({ type: 'fail', outcome: 'rejected', error: 'fenced' });
  });

  it('fence-claim: the read claims the resource (UPDATE … RETURNING data), and is fenced too', async () => {
    const { db, r } = resource('fence-claim', [{ rows: [{ data: '9', fence: '12' }] }, { rows: [], rowCount: 0 }]);
    expect(await r.read(12)).toEqual({ type: 'ok', outcome: 'accepted', value: 9, fence: 12 });
    expect(db.statements[0]).toEqual([SQL.claimRead, ['k', '12']]);
    expect(SQL.claimRead).toBe('UPDATE files SET fence = $2 WHERE key = $1 AND fence <= $2 RETURNING data, fence');
    expect(await r.read(11)).toEqual({ type: 'fail', outcome: 'rejected', error: 'fenced' });
  });

  it('cas-unique: mark with the token, then a write only where the mark is still ours (one statement)', async () => {
    const { db, r } = resource('cas-unique', [
      { rows: [{ fence: '0' }] },
      { rows: [{ data: '1', fence: '0' }] },
      { rows: [{ fence: '0' }] },
      { rows: [], rowCount: 0 },
    ]);
    expect(await r.mark('abc')).toMatchObject({ type: 'ok', outcome: 'accepted' });
    expect(await r.read('abc')).toMatchObject({ type: 'ok', value: 1 });
    expect(await r.write(2, 'abc')).toMatchObject({ type: 'ok', outcome: 'accepted' });
    expect(await r.write(2, 'abc')).toEqual({ type: 'fail', outcome: 'rejected', error: 'mark-changed' });
    expect(db.statements.map(([s, v]) => [s, v])).toEqual([
      [SQL.mark, ['k', 'abc']],
      [SQL.read, ['k']],
      [SQL.casWrite, ['k', '2', 'abc']],
      [SQL.casWrite, ['k', '2', 'abc']],
    ]);
  });

  it('cas-unique-nonatomic: SELECT where the mark is ours, then a plain UPDATE (two round trips)', async () => {
    const ok = resource('cas-unique-nonatomic', [{ rows: [{ mark: '17' }] }, { rows: [{ fence: '0' }] }]);
    expect(await ok.r.write(5, 17)).toMatchObject({ type: 'ok', outcome: 'accepted' });
    expect(ok.db.statements).toEqual([
      [SQL.readMark, ['k', '17']],
      [SQL.write, ['k', '5']],
    ]);
    expect(SQL.readMark).toBe('SELECT mark FROM files WHERE key = $1 AND mark = $2');
    // Another holder's mark: the SELECT matches no row.
    const stolen = resource('cas-unique-nonatomic', [{ rows: [] }]);
    expect(await stolen.r.write(5, 17)).toEqual({ type: 'fail', outcome: 'rejected', error: 'mark-changed' });
    expect(stolen.db.statements).toHaveLength(1);
  });
});

describe('nothing is sent when the access cannot apply', () => {
  it.each<[ResourceMode, 'read' | 'write' | 'mark', string | number, string]>([
    ['fence', 'write', 'a3f9c0', 'no-fencing-token'],
    ['fence-claim', 'read', 'a3f9c0', 'no-fencing-token'],
    ['fence', 'mark', 7, 'not-applicable'],
    ['none', 'mark', 7, 'not-applicable'],
  ])('%s %s under token %j: fail %s', async (mode, op, token, error) => {
    const { db, r } = resource(mode);
    const a = op === 'write' ? await r.write('v', token) : op === 'read' ? await r.read(token) : await r.mark(token);
    expect(a).toEqual({ type: 'fail', outcome: 'unknown', error });
    expect(db.statements).toEqual([]);
  });
});

describe('errors', () => {
  it('a SELECT that times out is a definite fail: a read changes nothing', async () => {
    const { r } = resource('fence', [indeterminate('timeout')]);
    expect(await r.read(1)).toEqual({ type: 'fail', outcome: 'unknown', error: 'timeout' });
  });

  it('a fence-claim read that times out is info: it may have raised the fence', async () => {
    const { r } = resource('fence-claim', [indeterminate('timeout')]);
    expect(await r.read(1)).toEqual({ type: 'info', outcome: 'unknown', error: 'timeout' });
  });

  it('a write that times out is info; one the server rolled back is fail', async () => {
    expect(await resource('fence', [indeterminate('timeout')]).r.write('v', 1)).toEqual({ type: 'info', outcome: 'unknown', error: 'timeout' });
    expect(await resource('fence', [failed('statement-timeout')]).r.write('v', 1)).toEqual({ type: 'fail', outcome: 'unknown', error: 'statement-timeout' });
  });

  it('cas-unique-nonatomic: the check failing is fail (nothing written), the update timing out is info', async () => {
    expect(await resource('cas-unique-nonatomic', [indeterminate('timeout')]).r.write('v', 1)).toEqual({ type: 'fail', outcome: 'unknown', error: 'timeout' });
    expect(await resource('cas-unique-nonatomic', [{ rows: [{ mark: '1' }] }, indeterminate('timeout')]).r.write('v', 1)).toEqual({
      type: 'info',
      outcome: 'unknown',
      error: 'timeout',
    });
  });

  it('a missing row is a rejection, not a crash', async () => {
    expect(await resource('none', [{ rows: [] }]).r.read(1)).toEqual({ type: 'fail', outcome: 'rejected', error: 'no-row' });
  });

  it('a bug (a non-OpError) is info', async () => {
    const db = { query: async () => Promise.reject(new TypeError('oops')) };
    expect(await new Resource(db, 'none', 'k').write('v', 1)).toEqual({ type: 'info', outcome: 'unknown', error: 'client-error' });
  });
});

describe('values and tokens', () => {
  it("lock-counter's counter is the data column as decimal text, read back as a number", () => {
    expect(dataText(41)).toBe('41');
    expect(dataValue('42')).toBe(42);
    expect(dataValue('-3')).toBe(-3);
    expect(dataValue('p3-17')).toBe('p3-17');
    expect(dataValue('007')).toBe('007');
    expect(dataValue('')).toBe('');
    expect(dataValue('99999999999999999999')).toBe('99999999999999999999');
  });

  it('fence parameters: non-negative integers and decimal strings only', () => {
    expect(fenceParam(12)).toBe('12');
    expect(fenceParam('123456789012345678901')).toBe('123456789012345678901');
    expect(fenceParam('a3f9')).toBeUndefined();
    expect(fenceParam(-1)).toBeUndefined();
    expect(fenceParam(1.5)).toBeUndefined();
    expect(fenceParam(undefined)).toBeUndefined();
  });
});
