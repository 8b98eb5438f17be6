/**
 * Integration (real servers, root): the advisory lock on its own PostgreSQL
 * (pgl1) excludes a second session and hands its sequence token on in
 * order; a client whose server is stopped when it starts still starts (its
 * acquire fails as an op, then is granted once the server is back); through the real PgBouncer in transaction pooling mode (pgb1) the
 * same client lets a second client in while the first holds the lock, and
 * pg_locks on pgl1 shows why: the lock belongs to a server connection of
 * the pooler, not to the client that asked. The session-end fault's I/O
 * (pg_terminate_backend of the session holding the lock) ends exactly the
 * holder's session, on the server and behind the pooler: the next client is
 * granted, the holder is told only at its next statement, and its next
 * acquire opens a new session. Runs under session-end (each its own
 * cluster): no fence loses updates, fence-claim refuses the stale holder.
 * Teardown leaves nothing.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { StateFile } from '../../runtime/hosts/state-file.js';
import { advisoryKey, PgAdvisoryLockClient, PgAdvisoryPooledLockClient } from '../../runtime/clients/pg-advisory-client.js';
import type { LockClient } from '../../runtime/clients/lock-client.js';
import { OpError } from '../../runtime/clients/op-error.js';
import { NOTHING_LEFT, SHARED_MACHINE, leftovers, waitFor, withClusterLock } from './helpers.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { runLockTest } from '../../src/run/run-lock-test.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { readHistory } from '../../src/history/read-history.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';

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

/** The pids on pgl1 holding any advisory lock. */
async function advisoryHolders(): Promise<number[]> {
  const [e] = cluster.endpoints('pg-advisory');
  const db = new pg.Client({ host: e!.host, port: e!.port, user: 'postgres', database: 'postgres' });
  await db.connect();
  try {
    return (await db.query<{ pid: number }>("SELECT DISTINCT pid FROM pg_locks WHERE locktype = 'advisory' AND granted")).rows.map((r) => r.pid);
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

describe('pg-advisory when its server cannot be reached at the start', () => {
  // Seen in session 48's shrink (--call-timeout-ms 100): a fresh client's connect timed out and the client crashed
  // (exit 255) before its ready line. A lock client connects best effort: its ops fail, the process does not.
  it('starts all the same; its acquire fails as an op while the server is stopped and is granted once it is back', async () => {
    const o = { endpoints: [endpoint('pg-advisory')], lockName: 'unreachable-at-start', callTimeoutMs: 300, log: () => undefined };
    const c = new PgAdvisoryLockClient(o);
    clients.push(c);
    await cluster.nemesis.pause('pgl1');
    try {
      await c.connect();
      const refused = await c.acquire(2000).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OpError);
    } finally {
      await cluster.nemesis.resume('pgl1');
    }
    const granted = await c.acquire(2000);
    expect(Number(granted.token)).toBeGreaterThan(0);
    expect(await holdersOnServer('unreachable-at-start')).toHaveLength(1);
    await c.release();
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

describe('the session-end fault (pg_terminate_backend of the session holding the lock)', () => {
  it("on its own PostgreSQL: ends the holder's session only; the next client is granted; the holder opens a new session at its next acquire", async () => {
    const a = await client('direct', 'ended-lock');
    const b = await client('direct', 'ended-lock');
    const first = await a.acquire(2000);
    const [holder] = await holdersOnServer('ended-lock');
    // Every session holding an advisory lock (the pooled test above leaves its pooler connection holding another).
    const holdingBefore = await advisoryHolders();
    const ended = await cluster.nemesis.endLockSessions('pgl1');
    expect(ended.pids).toContain(holder!.pid);
    expect(ended.pids.sort()).toEqual(holdingBefore.sort());
    // The server released it at once; the holder is not told until it uses its session (node-postgres hears the FATAL soon after).
    const second = await b.acquire(2000);
    expect(Number(second.token)).toBeGreaterThan(Number(first.token));
    expect((await holdersOnServer('ended-lock')).map((h) => h.pid)).not.toContain(holder!.pid);
    expect(await waitFor("the holder's client told of its session's end", async () => a.holdLost?.(), 2000, 20)).toMatch(/session's connection ended/);
    const release = await a.release().catch((e: unknown) => e);
    expect(release).toBeInstanceOf(OpError);
    expect((release as OpError).code).toBe('not-connected');
    await b.release();
    // A new session: granted, with a token after b's.
    const third = await a.acquire(2000);
    expect(Number(third.token)).toBeGreaterThan(Number(second.token));
    await a.release();
    // Nobody holds it now: a strike ends nothing.
    expect((await cluster.nemesis.endLockSessions('pgl1')).pids).toEqual([]);
  });

  it('behind PgBouncer: ends the pooled server connection that took the lock; another client is granted', async () => {
    const a = await client('pooled', 'ended-pooled-lock');
    await a.acquire(2000);
    const [holder] = await holdersOnServer('ended-pooled-lock');
    expect(holder!.client_addr).toBe(cluster.endpoints('pgbouncer')[0]!.host);
    expect((await cluster.nemesis.endLockSessions('pgl1')).pids).toEqual([holder!.pid]);
    const direct = await client('direct', 'ended-pooled-lock');
    await direct.acquire(2000);
    await direct.release();
  });

  it("is refused on a node that is not a session lock's server", async () => {
    await expect(cluster.nemesis.endLockSessions('pgb1')).rejects.toThrow(/No session-end fault on pgb1: it is a pgbouncer node/);
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

describe('runs under session-end (each on its own cluster)', () => {
  const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-session-end-'));
  afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));
  const options = (resource: RunOptions['resource']): RunOptions => ({
    ...DEFAULTS,
    backend: 'pg-advisory',
    resource,
    workload: 'lock-counter',
    nemesis: ['session-end'],
    // Between a holder's read and its write: the waiter's retry (every 25-75 ms) takes the lock inside the 200 ms hold.
    script: [1500, 3500, 5500].map((at) => ({
      at,
      until: at + 1000,
      fault: 'session-end' as const,
      target: { kind: 'holder' as const },
      trigger: { on: 'holder-read' as const, withinMs: 1500 },
    })),
    timeLimitS: 8,
    clients: 3,
    rate: 4,
    recoverMs: 1000,
    seed: 1,
    resultsDir,
  });
  const run = async (resource: RunOptions['resource']) => {
    const r = await runLockTest(options(resource), { log: (l) => console.log(`  ${l}`), ...SHARED_MACHINE });
    const history = await readHistory(join(r.runDir, 'history.jsonl'));
    const ended = history.filter((op) => op.process === 'nemesis' && op.f === 'end-session' && op.type === 'info' && op['error'] == null);
    const results = readResultsJson(r.runDir)!;
    console.log(
      `pg-advisory/${resource} under session-end: outcome ${results.outcome}, ${ended.length} session(s) ended, ${results.evidence?.protection.doubleHolds} double hold(s), ${results.evidence?.protection.refusals} refusal(s) (${r.runDir})`,
    );
    return { results, ended };
  };

  it('no fence: the holder writes on after its session ended, the next holder too: updates lost', async () => {
    const { results, ended } = await run('none');
    expect(ended.length).toBeGreaterThan(0);
    expect(results.evidence!.protection.doubleHolds).toBeGreaterThan(0);
    expect(results.outcome).toBe('unsafe');
  });

  it('fence-claim: the same ended sessions and double holds, the fence refuses the stale holder: safe', async () => {
    const { results, ended } = await run('fence-claim');
    expect(ended.length).toBeGreaterThan(0);
    expect(results.evidence!.protection.doubleHolds).toBeGreaterThan(0);
    expect(results.evidence!.protection.refusals).toBeGreaterThan(0);
    expect(results.outcome).toBe('safe');
  });
});
