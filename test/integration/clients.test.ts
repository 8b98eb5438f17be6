/**
 * Integration (real servers, root): the lock clients as the runner runs them,
 * each `node dist/runtime/clients/client-main.js` in its own client
 * namespace, against every backend, through one shared contract suite:
 *
 * - acquire gives a token (a number for monotonic backends, a string for Redlock);
 * - a second client's acquire while the lock is held fails (after waiting);
 * - after a release the other client acquires, with a larger token when monotonic;
 * - fence mode rejects a write under a token below the stored fence;
 *   fence-claim's read raises the fence (monotonic backends);
 *   cas-unique rejects the write of a holder whose mark was replaced (Redlock);
 * - a holder paused past its lease is refused when it wakes (monotonic backends);
 * - redis-sentinel: the client follows the master through a failover, and
 *   with WAIT refuses a grant no replica acknowledged.
 *
 * One cluster with every backend and PostgreSQL, started once. Needs
 * `npm run build` first (the clients run from dist/).
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import type { BackendName } from '../../core/cluster/cluster-plan.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { type ClientConfig } from '../../core/client-protocol.js';
import { prepareResource, type PgEndpoint } from '../../runtime/clients/resource.js';
import { ClientDriver } from '../clients/client-driver.js';
import { isolateOne } from '../../core/generator/grudge.js';
import { SHARED_MACHINE, redisClient, sleep, waitFor } from './helpers.js';
import { LOCK_SERVICES as LOCK_BACKENDS, type LockService as LockBackend, type ResourceMode } from '../../core/vocabulary.js';

const SERVERS: Record<LockBackend, BackendName> = {
  redis: 'redis',
  redlock: 'redlock',
  'redlock-npm': 'redlock',
  etcd: 'etcd',
  zookeeper: 'zookeeper',
  'redis-sentinel': 'redis-sentinel',
  'pg-advisory': 'pg-advisory',
  'pg-advisory-pooled': 'pgbouncer',
  memcached: 'memcached',
};
/** The advisory locks have no lease (and the pooled one breaks exclusion): their own file, pg-advisory.test.ts; memcached has no built-in client. */
const LEASED = LOCK_BACKENDS.filter((b) => b !== 'pg-advisory' && b !== 'pg-advisory-pooled' && b !== 'memcached');
const MONOTONIC = (b: LockBackend): boolean => b !== 'redlock' && b !== 'redlock-npm';
const CALL_TIMEOUT_MS = 400;
/** The contract tests' TTL: long enough that nothing expires by itself during them. */
const TTL_MS = 4000;
/** ZooKeeper's lease is the session (2 s: at least 4 ticks of 500 ms, so a busy machine does not drop it). */
const ZK_SESSION_MS = 2000;

let cluster: Cluster;
let pgEndpoint: PgEndpoint;
let sql: pg.Client;
const drivers: ClientDriver[] = [];
const t0 = Date.now();

beforeAll(async () => {
  cluster = await startCluster({
    backends: ['redis', 'redlock', 'etcd', 'zookeeper', 'postgres', 'redis-sentinel'],
    clientHosts: ['c1', 'c2'],
    runDir: join(projectRoot(), 'results', `test-clients-${new Date().toISOString().replace(/[:.]/g, '-')}`),
    log: (l) => console.log(`  ${l}`),
    ...SHARED_MACHINE,
  });
  const e = cluster.endpoints('postgres')[0]!;
  pgEndpoint = { host: e.host, port: e.port, user: 'postgres', database: 'postgres' };
  sql = new pg.Client({ ...pgEndpoint, connectionTimeoutMillis: 5000 });
  await sql.connect();
  console.log(`cluster up in ${Date.now() - t0} ms`);
});

afterAll(async () => {
  const t = Date.now();
  await Promise.all(drivers.map((d) => d.shutdown(3000).catch(() => undefined)));
  await sql?.end().catch(() => undefined);
  await cluster?.teardown();
  console.log(`clients stopped and cluster torn down in ${Date.now() - t} ms; whole file ${Date.now() - t0} ms`);
});

function config(backend: LockBackend, client: number, resource: ResourceMode): ClientConfig {
  return {
    client,
    backend,
    lockEndpoints: cluster.clientEndpoints(SERVERS[backend]).map((e) => `${e.host}:${e.port}`),
    lockName: backend === 'zookeeper' ? `/fc-lock-${backend}` : `fc-lock-${backend}`,
    resource,
    pg: pgEndpoint,
    resourceKey: `file-${backend}`,
    callTimeoutMs: CALL_TIMEOUT_MS,
    sessionTimeoutMs: ZK_SESSION_MS,
  };
}

async function client(backend: LockBackend, n: number, host: 'c1' | 'c2', resource: ResourceMode, extra: Partial<ClientConfig> = {}): Promise<ClientDriver> {
  const d = ClientDriver.spawn(cluster.clientHost(host), `${backend}-${n}`, { ...config(backend, n, resource), ...extra });
  drivers.push(d);
  const ready = await Promise.race([d.ready, sleep(15_000).then(() => undefined)]);
  if (!ready) throw new Error(`${backend} client ${n} not ready in 15 s:\n${d.stderr.join('\n')}`);
  expect(ready.versions).toMatchObject({ ioredis: '5.9.2', etcd3: '1.1.2', zookeeper: '7.3.0', pg: '8.16.3', redlock: '5.0.0-beta.2' });
  return d;
}

async function fenceOf(backend: LockBackend): Promise<number> {
  const r = await sql.query<{ fence: string }>('SELECT fence FROM files WHERE key = $1', [`file-${backend}`]);
  return Number(r.rows[0]!.fence);
}

async function setFence(backend: LockBackend, fence: number): Promise<void> {
  await sql.query('UPDATE files SET fence = $2 WHERE key = $1', [`file-${backend}`, fence]);
}

describe.each(LEASED)('%s client: the contract', (backend) => {
  const monotonic = MONOTONIC(backend);
  const mode: ResourceMode = monotonic ? 'fence' : 'cas-unique';
  let a: ClientDriver;
  let b: ClientDriver;
  const tokens: (number | string)[] = [];

  beforeAll(async () => {
    await prepareResource(pgEndpoint, `file-${backend}`, '');
    [a, b] = await Promise.all([client(backend, 0, 'c1', mode), client(backend, 1, 'c2', mode)]);
  });

  afterAll(async () => {
    for (const d of [a, b]) if (d) expect(await d.shutdown()).toBe(0);
  });

  it('acquire gives a token', async () => {
    const r = await a.call({ op: 'acquire', ttlMs: TTL_MS });
    expect(r).toMatchObject({ type: 'ok' });
    expect(typeof r.token).toBe(monotonic ? 'number' : 'string');
    expect(r.lease_ms).toBe(backend === 'zookeeper' ? ZK_SESSION_MS : TTL_MS);
    if (backend === 'redlock' || backend === 'redlock-npm') expect(r.validity_ms).toBeGreaterThan(TTL_MS - 200);
    tokens.push(r.token!);
  });

  it("a second client's acquire while held waits, then fails", async () => {
    const t = Date.now();
    const r = await b.call({ op: 'acquire', ttlMs: TTL_MS });
    const ms = Date.now() - t;
    console.log(`${backend}: held lock, second acquire answered ${JSON.stringify(r)} after ${ms} ms`);
    expect(r.type).toBe('fail');
    expect(r.error).toBe('held');
    expect(r.token).toBeUndefined();
    // The npm library's retries have random jitter; ours wait until the call timeout.
    expect(ms).toBeGreaterThanOrEqual(backend === 'redlock-npm' ? CALL_TIMEOUT_MS * 0.3 : CALL_TIMEOUT_MS * 0.8);
    expect(ms).toBeLessThan(CALL_TIMEOUT_MS * 3);
  });

  it('release, then the other client acquires (a larger token when monotonic)', async () => {
    expect(await a.call({ op: 'release' })).toMatchObject({ type: 'ok', token: tokens[0] });
    const r = await b.call({ op: 'acquire', ttlMs: TTL_MS });
    expect(r.type).toBe('ok');
    if (monotonic) expect(r.token as number).toBeGreaterThan(tokens[0] as number);
    else expect(r.token).not.toBe(tokens[0]);
    tokens.push(r.token!);
    expect(await b.call({ op: 'release' })).toMatchObject({ type: 'ok' });
    // Nothing held any more: the second release is a definite fail, with nothing sent.
    expect(await b.call({ op: 'release' })).toMatchObject({ type: 'fail', error: 'not-held' });
  });

  it.runIf(monotonic)('fence: a write under a token below the stored fence is rejected; at or above it, accepted', async () => {
    const acq = await a.call({ op: 'acquire', ttlMs: TTL_MS });
    const token = acq.token as number;
    await setFence(backend, token + 1000);
    expect(await a.call({ op: 'write', value: 'stale' })).toMatchObject({ type: 'fail', outcome: 'rejected', error: 'fenced', token });
    expect(await fenceOf(backend)).toBe(token + 1000);
    await setFence(backend, token);
    // `<=`: the same token may write again.
    expect(await a.call({ op: 'write', value: 'p0-1' })).toMatchObject({ type: 'ok', outcome: 'accepted', fence: token, token });
    expect(await a.call({ op: 'write', value: 'p0-2' })).toMatchObject({ type: 'ok', outcome: 'accepted', fence: token });
    expect(await a.call({ op: 'read' })).toMatchObject({ type: 'ok', value: 'p0-2', fence: token });
    expect(await a.call({ op: 'release' })).toMatchObject({ type: 'ok' });
    expect(await a.call({ op: 'final-read' })).toMatchObject({ type: 'ok', value: 'p0-2' });
  });

  it.runIf(monotonic)('fence-claim: the read raises the fence to the token, and a lower fence holder is then rejected', async () => {
    const c = await client(backend, 2, 'c1', 'fence-claim');
    await setFence(backend, 0);
    const acq = await c.call({ op: 'acquire', ttlMs: TTL_MS });
    expect(acq.type).toBe('ok');
    const token = acq.token as number;
    expect(await c.call({ op: 'read' })).toMatchObject({ type: 'ok', outcome: 'accepted', value: 'p0-2', fence: token });
    expect(await fenceOf(backend)).toBe(token);
    expect(await c.call({ op: 'write', value: 3 })).toMatchObject({ type: 'ok', fence: token });
    expect(await c.call({ op: 'read' })).toMatchObject({ type: 'ok', value: 3 });
    expect(await c.call({ op: 'release' })).toMatchObject({ type: 'ok' });
    await setFence(backend, token + 1000);
    await c.call({ op: 'acquire', ttlMs: TTL_MS });
    expect(await c.call({ op: 'read' })).toMatchObject({ type: 'fail', outcome: 'rejected', error: 'fenced' });
    await c.call({ op: 'release' });
    await setFence(backend, 0);
    expect(await c.shutdown()).toBe(0);
  });

  it.runIf(!monotonic)('cas-unique: a holder whose lock expired and whose mark was replaced cannot write', async () => {
    const first = await a.call({ op: 'acquire', ttlMs: 300 });
    expect(first.type).toBe('ok');
    expect(await a.call({ op: 'mark' })).toMatchObject({ type: 'ok', outcome: 'accepted' });
    await sleep(450);
    const second = await b.call({ op: 'acquire', ttlMs: TTL_MS });
    expect(second.type).toBe('ok');
    expect(await b.call({ op: 'mark' })).toMatchObject({ type: 'ok' });
    expect(await a.call({ op: 'write', value: 'late' })).toMatchObject({ type: 'fail', outcome: 'rejected', error: 'mark-changed', token: first.token });
    expect(await b.call({ op: 'write', value: 'p1-1' })).toMatchObject({ type: 'ok', outcome: 'accepted', token: second.token });
    // a's keys expired on every node: a majority answers "not ours".
    expect(await a.call({ op: 'release' })).toMatchObject({ type: 'fail', error: 'not-held' });
    expect(await b.call({ op: 'release' })).toMatchObject({ type: 'ok' });
  });

  it.runIf(monotonic)('a holder paused past its lease is refused when it wakes (fenced, or it noticed the loss)', async () => {
    // etcd's shortest lease is 2 s, ZooKeeper's session here 2 s, Redis's key 1 s: a 3.5 s pause outlives each.
    const ttl = backend === 'redis' || backend === 'redis-sentinel' ? 1000 : 2000;
    const first = await a.call({ op: 'acquire', ttlMs: ttl });
    expect(first.type).toBe('ok');
    await cluster.nemesis.pause(a.proc);
    try {
      await sleep(3500);
      const second = await b.call({ op: 'acquire', ttlMs: TTL_MS });
      expect(second.type).toBe('ok');
      expect(second.token as number).toBeGreaterThan(first.token as number);
      expect(await b.call({ op: 'write', value: 'p1-9' })).toMatchObject({ type: 'ok', fence: second.token });
    } finally {
      await cluster.nemesis.resume(a.proc);
    }
    const late = await a.call({ op: 'write', value: 'stale' });
    console.log(`${backend}: paused holder's write after waking: ${JSON.stringify(late)}`);
    expect(late.type).toBe('fail');
    expect(['fenced', 'lock-lost']).toContain(late.error);
    expect(await a.call({ op: 'release' })).not.toMatchObject({ type: 'ok' });
    expect(await b.call({ op: 'release' })).toMatchObject({ type: 'ok' });
    expect(await b.call({ op: 'final-read' })).toMatchObject({ type: 'ok', value: 'p1-9' });
  });
});

describe('redis-sentinel client: following the master, WAIT', () => {
  const dataNodes = (): string[] =>
    cluster
      .nodesOf('redis-sentinel')
      .filter((n) => n.plan.role === 'data')
      .map((n) => n.name);

  it('WAIT 1 refuses a grant when the replicas are cut off from the master, and deletes the key', async () => {
    const w = await client('redis-sentinel', 10, 'c1', 'none', { waitReplicas: 1, lockName: 'fc-lock-wait' });
    const ok = await w.call({ op: 'acquire', ttlMs: TTL_MS });
    expect(ok).toMatchObject({ type: 'ok' });
    expect(await w.call({ op: 'release' })).toMatchObject({ type: 'ok' });
    const master = (await cluster.leader('redis-sentinel'))!;
    await cluster.nemesis.partition(isolateOne(dataNodes(), master));
    try {
      const refused = await w.call({ op: 'acquire', ttlMs: TTL_MS });
      console.log(`redis-sentinel WAIT 1 with the replicas cut off: ${JSON.stringify(refused)}`);
      expect(refused).toMatchObject({ type: 'fail', error: 'not-replicated' });
      const { ip, port } = cluster.node(master).plan;
      const r = redisClient(ip, port);
      await r.connect();
      expect(await r.get('fc-lock-wait')).toBeNull();
      r.disconnect();
    } finally {
      await cluster.nemesis.heal();
    }
    expect(await w.shutdown()).toBe(0);
  });

  it('follows the master through a kill -9 failover: the next acquire is granted by the promoted replica', async () => {
    const f = await client('redis-sentinel', 11, 'c2', 'none', { lockName: 'fc-lock-follow' });
    expect(await f.call({ op: 'acquire', ttlMs: 500 })).toMatchObject({ type: 'ok' });
    expect(await f.call({ op: 'release' })).toMatchObject({ type: 'ok' });
    const old = (await cluster.leader('redis-sentinel'))!;
    await cluster.nemesis.kill(old);
    const promoted = await waitFor(
      'a new master',
      async () => {
        const m = await cluster.leader('redis-sentinel');
        return m !== undefined && m !== old ? m : undefined;
      },
      15_000,
      50,
    );
    const answers: string[] = [];
    const r = await waitFor(
      'an acquire granted after the failover',
      async () => {
        const a = await f.call({ op: 'acquire', ttlMs: TTL_MS });
        answers.push(JSON.stringify(a));
        return a.type === 'ok' ? a : undefined;
      },
      10_000,
      200,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\nanswers: ${answers.slice(-3).join('\n')}\nclient log:\n${f.stderr.slice(-15).join('\n')}`);
    });
    console.log(`redis-sentinel: ${old} killed, ${promoted} promoted, client granted token ${String(r.token)}`);
    expect(r.type).toBe('ok');
    expect(f.stderr.join('\n')).toContain(`connected to the master at ${cluster.node(promoted).plan.ip}:6379`);
    expect(await f.call({ op: 'release' })).toMatchObject({ type: 'ok' });
    await cluster.nemesis.restart(old);
    expect(await f.shutdown()).toBe(0);
  });
});
