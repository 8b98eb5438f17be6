/**
 * Integration (real PostgreSQL, root): the version and for-update modes'
 * SQL (runtime/clients/resource-modes.ts) as clients run it
 * (run-statements.ts over PgDb), against the server itself, with no lock:
 *
 * - version: of two read-modify-writes from the same version, the second is
 *   refused (`version-changed`) and the row keeps the first;
 * - for-update: a second section's SELECT … FOR UPDATE waits for the first
 *   one's COMMIT, then reads its value (no lost update);
 * - a waiter that waits past statement_timeout fails definitely, and its
 *   transaction is rolled back (its next section runs);
 * - idle_in_transaction_session_timeout (set by prepareResource, as a run's
 *   --idle-tx-timeout-ms does) ends a section idle inside its transaction:
 *   its write fails definitely and changes nothing, and the row lock is free;
 * - outside a transaction the write's guard matches no row (transaction-lost).
 *
 * One PostgreSQL node and no client host; the clients connect from the root
 * namespace, as prepareResource does. Torn down in afterAll, on failure too.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { accessStatements } from '../../runtime/clients/resource-modes.js';
import { PgDb, prepareResource, type PgEndpoint } from '../../runtime/clients/resource.js';
import { runStatements, type Transaction } from '../../runtime/clients/run-statements.js';
import { OpError } from '../../runtime/clients/op-error.js';
import { SHARED_MACHINE, sleep } from './helpers.js';

const KEY = 'db-control';
const CALL_TIMEOUT_MS = 1000;

let cluster: Cluster;
let endpoint: PgEndpoint;
const dbs: PgDb[] = [];

beforeAll(async () => {
  cluster = await startCluster({
    backends: ['postgres'],
    clientHosts: [],
    runDir: join(projectRoot(), 'results', `test-db-control-${new Date().toISOString().replace(/[:.]/g, '-')}`),
    log: (l) => console.log(`  ${l}`),
    ...SHARED_MACHINE,
  });
  const e = cluster.endpoints('postgres')[0]!;
  endpoint = { host: e.host, port: e.port, user: 'postgres', database: 'postgres' };
});

afterAll(async () => {
  await Promise.all(dbs.map((d) => d.close()));
  await cluster?.teardown();
});

/** A client's connection and its transaction state, as one client process keeps them. */
function client(): { run: (op: 'read' | 'write', value?: number, version?: number) => Promise<unknown> } {
  const db = new PgDb(endpoint, CALL_TIMEOUT_MS, (l) => console.log(`  pg: ${l}`));
  dbs.push(db);
  const tx: Transaction = { open: false };
  return {
    run: (op, value, version) =>
      runStatements(db, accessStatements(mode, op, KEY, value ?? null, version), undefined, tx).catch((e: unknown) =>
        e instanceof OpError ? { type: e.type, error: e.code } : Promise.reject(e),
      ),
  };
}

let mode: 'version' | 'for-update' = 'version';

async function finalValue(): Promise<unknown> {
  const db = new PgDb(endpoint, CALL_TIMEOUT_MS, () => undefined);
  try {
    return (await runStatements(db, accessStatements('none', 'final-read', KEY), undefined)).value;
  } finally {
    await db.close();
  }
}

describe('version', () => {
  it('of two writes from the same version, the second is refused and the row keeps the first', async () => {
    mode = 'version';
    await prepareResource(endpoint, KEY, '0');
    const [a, b] = [client(), client()];
    const ra = (await a.run('read')) as { value: number; version: number };
    const rb = (await b.run('read')) as { value: number; version: number };
    expect([ra.version, rb.version]).toEqual([0, 0]);
    expect(await a.run('write', ra.value + 1, ra.version)).toMatchObject({ type: 'ok', version: 1 });
    expect(await b.run('write', rb.value + 1, rb.version)).toEqual({ type: 'fail', outcome: 'rejected', error: 'version-changed' });
    // The retry reads the new version and succeeds.
    const again = (await b.run('read')) as { value: number; version: number };
    expect(await b.run('write', again.value + 1, again.version)).toMatchObject({ type: 'ok', version: 2 });
    expect(await finalValue()).toBe(2);
  });
});

describe('for-update', () => {
  it("a second section waits for the first one's COMMIT, then reads its value", async () => {
    mode = 'for-update';
    await prepareResource(endpoint, KEY, '0');
    const [a, b] = [client(), client()];
    const ra = (await a.run('read')) as { value: number };
    const started = Date.now();
    const rbPromise = b.run('read') as Promise<{ value: number }>;
    await sleep(300);
    expect(await a.run('write', ra.value + 1)).toMatchObject({ type: 'ok' });
    const rb = await rbPromise;
    const waited = Date.now() - started;
    console.log(`  b waited ${waited} ms for the row lock`);
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(rb).toMatchObject({ type: 'ok', value: 1 });
    expect(await b.run('write', rb.value + 1)).toMatchObject({ type: 'ok' });
    expect(await finalValue()).toBe(2);
  });

  it('a waiter past statement_timeout fails definitely; its transaction is gone, its next section runs', async () => {
    mode = 'for-update';
    await prepareResource(endpoint, KEY, '0');
    const [a, b] = [client(), client()];
    await a.run('read');
    expect(await b.run('read')).toEqual({ type: 'fail', error: 'statement-timeout' });
    expect(await a.run('write', 7)).toMatchObject({ type: 'ok' });
    expect(await b.run('read')).toMatchObject({ type: 'ok', value: 7 });
    expect(await b.run('write', 8)).toMatchObject({ type: 'ok' });
    expect(await finalValue()).toBe(8);
  });

  it('idle_in_transaction_session_timeout ends an idle section: its write fails and changes nothing, the lock is free', async () => {
    mode = 'for-update';
    await prepareResource(endpoint, KEY, '0', 10_000, { idleInTransactionTimeoutMs: 500 });
    try {
      const [a, b] = [client(), client()];
      await a.run('read');
      // a idles inside its transaction (a paused client); the server ends its session after 500 ms.
      await sleep(1200);
      expect(await b.run('read')).toMatchObject({ type: 'ok', value: 0 });
      expect(await b.run('write', 1)).toMatchObject({ type: 'ok' });
      const late = (await a.run('write', 99)) as { type: string; error: string };
      console.log(`  the idle section's late write: ${JSON.stringify(late)}`);
      expect(late.type).toBe('fail');
      expect(await finalValue()).toBe(1);
    } finally {
      await prepareResource(endpoint, KEY, '0', 10_000, { idleInTransactionTimeoutMs: 0 });
    }
  });

  it('outside a transaction the write is refused by its guard: transaction-lost', async () => {
    mode = 'for-update';
    await prepareResource(endpoint, KEY, '5');
    expect(await client().run('write', 6)).toEqual({ type: 'fail', outcome: 'rejected', error: 'transaction-lost' });
    expect(await finalValue()).toBe(5);
  });
});
