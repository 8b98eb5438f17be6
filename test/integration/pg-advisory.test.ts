/**
 * Integration (real servers, root): the advisory lock on its own PostgreSQL
 * (pgl1) excludes a second session and hands its sequence token on in
 * order; through the real PgBouncer in transaction pooling mode (pgb1) the
 * same client lets a second client in while the first holds the lock, and
 * pg_locks on pgl1 shows why: the lock belongs to a server connection of
 * the pooler, not to the client that asked. Teardown leaves nothing.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { StateFile } from '../../runtime/hosts/state-file.js';
import { advisoryKey, PgAdvisoryLockClient, PgAdvisoryPooledLockClient } from '../../runtime/clients/pg-advisory-client.js';
import type { LockClient } from '../../runtime/clients/lock-client.js';
import { OpError } from '../../runtime/clients/op-error.js';
import { NOTHING_LEFT, SHARED_MACHINE, leftovers, withClusterLock } from './helpers.js';

let cluster: Cluster;
const clients: LockClient[] = [];

beforeAll(async () => {
  cluster = await startCluster({ ...SHARED_MACHINE, backends: ['pgbouncer', 'pg-advisory'], clientHosts: ['c1'], log: (l) => console.log(`  ${l}`) });
});

afterAll(async () => {
  for (const c of clients) await c.close();
  // Already done by the last test when it ran; a teardown is idempotent.
  await cluster?.teardown();
});

const endpoint = (backend: 'pg-advisory' | 'pgbouncer'): string => {
  const [e] = cluster.endpoints(backend);
  return `${e!.host}:${e!.port}`;
};

async function client(kind: 'direct' | 'pooled', lockName: string): Promise<LockClient> {
  const o = { endpoints: [endpoint(kind === 'direct' ? 'pg-advisory' : 'pgbouncer')], lockName, callTimeoutMs: 500, log: () => undefined };
  const c = kind === 'direct' ? new PgAdvisoryLockClient(o) : new PgAdvisoryPooledLockClient(o);
  await c.connect();
  clients.push(c);
  return c;
}

/** The pids on pgl1 holding the advisory lock of `lockName`, and what kind of client each is. */
async function holdersOnServer(lockName: string): Promise<{ pid: number; application_name: string; client_addr: string }[]> {
  const [e] = cluster.endpoints('pg-advisory');
  const db = new pg.Client({ host: e!.host, port: e!.port, user: 'postgres', database: 'postgres' });
  await db.connect();
  try {
    const key = BigInt(advisoryKey(lockName));
    // A bigint key is stored as classid (high 32 bits) and objid (low 32 bits), objsubid 1.
    const hi = Number(BigInt.asUintN(32, key >> 32n));
    const lo = Number(BigInt.asUintN(32, key));
    const r = await db.query<{ pid: number; application_name: string; client_addr: string }>(
      `SELECT l.pid, a.application_name, host(a.client_addr) AS client_addr FROM pg_locks l JOIN pg_stat_activity a USING (pid)
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 1`,
      [hi, lo],
    );
    return r.rows;
  } finally {
    await db.end();
  }
}

describe('pg-advisory on its own PostgreSQL', () => {
  it('excludes a second session, then hands over with a higher token', async () => {
    const a = await client('direct', 'direct-lock');
    const b = await client('direct', 'direct-lock');
    const first = await a.acquire(2000);
    const refused = await b.acquire(2000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpError);
    expect((refused as OpError).code).toBe('held');
    expect(await holdersOnServer('direct-lock')).toHaveLength(1);
    await a.release();
    const second = await b.acquire(2000);
    expect(Number(second.token)).toBeGreaterThan(Number(first.token));
    await b.release();
    expect(await holdersOnServer('direct-lock')).toEqual([]);
  });
});

describe('pg-advisory-pooled through PgBouncer (transaction pooling)', () => {
  it('grants a second client while the first holds: the lock belongs to a pooler connection', async () => {
    const a = await client('pooled', 'pooled-lock');
    const b = await client('pooled', 'pooled-lock');
    await a.acquire(2000);
    const holders = await holdersOnServer('pooled-lock');
    // One server session holds it, and it is PgBouncer's (its address is pgb1's), not either client's.
    expect(holders).toHaveLength(1);
    expect(holders[0]!.client_addr).toBe(cluster.endpoints('pgbouncer')[0]!.host);
    const second = await b.acquire(2000).catch((e: unknown) => e);
    console.log(`B's acquire while A holds, through PgBouncer: ${second instanceof OpError ? `fail ${second.code}` : `granted ${JSON.stringify(second)}`}`);
    // B's statement ran on the server connection that holds the lock (or on the other one): granted means re-entered.
    const granted = !(second instanceof OpError);
    if (granted) expect(await holdersOnServer('pooled-lock')).toHaveLength(1);
    expect(granted).toBe(true);
  });
});

describe('teardown', () => {
  it('leaves no PgBouncer or PostgreSQL process, namespace or data dir', async () => {
    expect(cluster.nodes.map((n) => n.name).sort()).toEqual(['pgb1', 'pgl1']);
    const processes = StateFile.read(cluster.stateFile)!.processes;
    await cluster.teardown();
    expect(await withClusterLock(() => leftovers(processes))).toEqual(NOTHING_LEFT);
  });
});
