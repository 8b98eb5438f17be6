/**
 * The advisory lock client's pure part: the key from the lock name (stable,
 * signed 64-bit) and the statements: the token is drawn in the grant's own
 * statement, only when the lock was taken.
 */
import { describe, expect, it } from 'vitest';
import { advisoryKey, PG_ADVISORY_SQL, TOKEN_SEQUENCE } from '../../runtime/clients/pg-advisory-client.js';

describe('pg-advisory client', () => {
  it('derives a stable signed 64-bit key per lock name', () => {
    const k = BigInt(advisoryKey('fencecheck-lock'));
    expect(k).toBe(BigInt(advisoryKey('fencecheck-lock')));
    expect(k >= -(2n ** 63n) && k < 2n ** 63n).toBe(true);
    expect(advisoryKey('fencecheck-lock')).not.toBe(advisoryKey('fencecheck-check-lock'));
  });

  it('draws the token in the statement that takes the lock, and only when it does', () => {
    expect(PG_ADVISORY_SQL.tryLock).toBe(`SELECT CASE WHEN pg_try_advisory_lock($1::bigint) THEN nextval('${TOKEN_SEQUENCE}') END AS token`);
    // Session-level (not the _xact_ variants, which a pooler would not break but which end with the transaction).
    expect(PG_ADVISORY_SQL.tryLock).not.toMatch(/xact/);
    expect(PG_ADVISORY_SQL.unlock).toBe('SELECT pg_advisory_unlock($1::bigint) AS released');
  });
});
