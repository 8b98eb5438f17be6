/**
 * Integration (real servers, root): every backend starts from nothing in
 * parallel and each answers a real client; then teardown leaves nothing.
 */
import { execFileSync } from 'node:child_process';
import { Etcd3 } from 'etcd3';
import pg from 'pg';
import ZooKeeper from 'zookeeper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { BACKENDS } from '../../core/cluster/cluster-plan.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { NOTHING_LEFT, SHARED_MACHINE, leftovers, redisClient, withClusterLock } from './helpers.js';

let cluster: Cluster;
let startMs = 0;

beforeAll(async () => {
  const t0 = Date.now();
  cluster = await startCluster({ ...SHARED_MACHINE, backends: BACKENDS, clientHosts: ['c1'], log: (l) => console.log(`  ${l}`) });
  startMs = Date.now() - t0;
  console.log(`every backend ready from nothing in ${startMs} ms`);
});

afterAll(async () => {
  await cluster?.teardown();
});

describe('every backend', () => {
  it('start from nothing within the time budget', () => {
    // The target is 5 s on a 2-core machine; allow slack for a loaded CI runner.
    expect(startMs).toBeLessThan(10_000);
    expect(cluster.endpoints().map((e) => e.node)).toEqual(cluster.plan.nodes.map((n) => n.name));
  });

  it('redis answers SET/GET', async () => {
    const [e] = cluster.endpoints('redis');
    const r = redisClient(e!.host, e!.port);
    await r.connect();
    expect(await r.set('k', 'v')).toBe('OK');
    expect(await r.get('k')).toBe('v');
    r.disconnect();
  });

  it('redlock: five independent Redis masters answer', async () => {
    const eps = cluster.endpoints('redlock');
    expect(eps).toHaveLength(5);
    for (const e of eps) {
      const r = redisClient(e.host, e.port);
      await r.connect();
      expect(await r.set('lock', e.node, 'PX', 10_000, 'NX')).toBe('OK');
      expect((await r.info('replication')).includes('role:master')).toBe(true);
      r.disconnect();
    }
  });

  it('etcd: three members, one leader, put/get', async () => {
    const client = new Etcd3({ hosts: cluster.endpoints('etcd').map((e) => e.url), defaultCallOptions: () => ({ deadline: Date.now() + 5000 }) });
    try {
      await client.put('k').value('v');
      expect(await client.get('k').string()).toBe('v');
      expect((await client.cluster.memberList({})).members).toHaveLength(3);
      expect(await cluster.leader('etcd')).toMatch(/^etcd[123]$/);
    } finally {
      client.close();
    }
  });

  it('zookeeper: three members, one leader, create/get', async () => {
    const zk = new ZooKeeper({
      connect: cluster
        .endpoints('zookeeper')
        .map((e) => `${e.host}:${e.port}`)
        .join(','),
      timeout: 4000,
      debug_level: ZooKeeper.constants.ZOO_LOG_LEVEL_ERROR,
      host_order_deterministic: false,
    });
    await new Promise<void>((resolve) => {
      zk.once('connect', () => resolve());
      zk.init({});
    });
    try {
      await zk.create('/fc', 'hello', ZooKeeper.constants.ZOO_PERSISTENT);
      const [, data] = (await zk.get('/fc', false)) as [unknown, Buffer];
      expect(data.toString()).toBe('hello');
      expect(await cluster.leader('zookeeper')).toMatch(/^zk[123]$/);
    } finally {
      await zk.close();
    }
  });

  it('postgres: runs as the postgres user and answers SQL', async () => {
    const [e] = cluster.endpoints('postgres');
    const client = new pg.Client({ connectionString: e!.url, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      await client.query('CREATE TABLE t (id int PRIMARY KEY, v text)');
      await client.query("INSERT INTO t VALUES (1, 'x')");
      expect((await client.query('SELECT v FROM t WHERE id = 1')).rows).toEqual([{ v: 'x' }]);
      expect((await client.query('SELECT current_user AS u')).rows).toEqual([{ u: 'postgres' }]);
    } finally {
      await client.end();
    }
    const uid = execFileSync('ps', ['-o', 'user=', '-p', String(cluster.node('pg1').pid)])
      .toString()
      .trim();
    expect(uid).toBe('postgres');
  });

  it('a client host reaches the servers from its own namespace and address', async () => {
    const c1 = cluster.clientHost('c1');
    const out = await c1.exec(['redis-cli', '-h', cluster.node('redis1').plan.ip, 'CLIENT', 'INFO']);
    expect(out.stdout).toContain(`addr=${c1.ip}:`);
  });

  it('each node logs to results/<run>/logs/<node>.log', async () => {
    for (const n of cluster.nodes) expect((await n.logs(200)).length).toBeGreaterThan(1);
    expect((await cluster.node('zk1').logs(400)).join('\n')).toMatch(/INFO org\.apache\.zookeeper/);
  });

  it('teardown is fast and leaves nothing', async () => {
    const recorded = cluster.nodes.map((n) => ({ pid: n.pid!, comm: n.spec.comm, startTime: 0, name: n.name, stopSignal: 'SIGKILL' as const, graceMs: 0 }));
    const t0 = Date.now();
    await cluster.teardown();
    const ms = Date.now() - t0;
    console.log(`teardown of every backend: ${ms} ms`);
    expect(ms).toBeLessThan(3000);
    expect(await withClusterLock(() => leftovers())).toEqual(NOTHING_LEFT);
    for (const p of recorded) expect(() => process.kill(p.pid, 0)).toThrow();
  });
});
