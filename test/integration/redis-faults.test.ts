/**
 * Integration (real servers, root): process and clock faults on Redis do
 * exactly what they claim. redis1 runs with `appendonly yes` (aof-everysec),
 * the redlock nodes without persistence.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { SHARED_MACHINE, redisClient, sleep } from './helpers.js';

let cluster: Cluster;
const clients: Redis[] = [];

beforeAll(async () => {
  cluster = await startCluster({ ...SHARED_MACHINE, backends: ['redis', 'redlock'], redis: { persistence: 'aof-everysec' }, redlock: { persistence: 'none' } });
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  await cluster.nemesis.healAll();
});

afterAll(async () => {
  await cluster?.teardown();
});

async function connect(node: string, timeoutMs = 2000): Promise<Redis> {
  const { ip, port } = cluster.node(node).plan;
  const c = redisClient(ip, port, timeoutMs);
  await c.connect();
  clients.push(c);
  return c;
}

describe('pause (SIGSTOP / SIGCONT)', () => {
  it('a Redis node paused for 3 s lets a 1 s lock key expire before it resumes', async () => {
    const r = await connect('redlock1', 500);
    expect(await r.set('lock', 'holder-a', 'PX', 1000, 'NX')).toBe('OK');
    await cluster.nemesis.pause('redlock1');
    const pausedAt = Date.now();
    // Paused: no answer within the command timeout (the kernel still accepts the connection).
    await expect(r.ping()).rejects.toThrow(/timed out/i);
    await sleep(3000 - (Date.now() - pausedAt));
    await cluster.nemesis.resume('redlock1');
    const after = await connect('redlock1');
    // Expiry is absolute wall-clock time: the key died while the server was frozen.
    expect(await after.get('lock')).toBeNull();
    expect(await after.set('lock', 'holder-b', 'PX', 1000, 'NX')).toBe('OK');
  });
});

describe('clock offset (LD_PRELOAD library)', () => {
  it('+20 s expires a PX 10000 key at once', async () => {
    const r = await connect('redlock2');
    await r.set('lock', 'a', 'PX', 10_000);
    expect(await r.pttl('lock')).toBeGreaterThan(9000);
    await cluster.nemesis.clockOffset('redlock2', 20_000);
    expect(await r.get('lock')).toBeNull();
    expect(await r.pttl('lock')).toBe(-2);
  });

  it('-20 s keeps a PX 10000 key alive past 10 s (real time)', async () => {
    const r = await connect('redlock3');
    await r.set('lock', 'a', 'PX', 10_000);
    const setAt = Date.now();
    await cluster.nemesis.clockOffset('redlock3', -20_000);
    await sleep(10_500);
    expect(Date.now() - setAt).toBeGreaterThan(10_000);
    expect(await r.get('lock')).toBe('a');
    const left = await r.pttl('lock');
    console.log(`after ${Date.now() - setAt} ms of real time, the PX 10000 key has ${left} ms left on the shifted clock`);
    expect(left).toBeGreaterThan(15_000);
    // Back to true time: the key is long overdue and goes at once.
    await cluster.nemesis.clockOffset('redlock3', 0);
    expect(await r.get('lock')).toBeNull();
  }, 30_000);

  it('applies to Redis only through its own offset file: other nodes keep true time', async () => {
    await cluster.nemesis.clockOffset('redlock4', 3_600_000);
    const shifted = Number((await (await connect('redlock4')).time())[0]);
    const honest = Number((await (await connect('redlock5')).time())[0]);
    expect(shifted - honest).toBeGreaterThan(3590);
    expect(shifted - honest).toBeLessThan(3610);
  });
});

describe('kill -9 and restart', () => {
  it('loses the key without persistence', async () => {
    const r = await connect('redlock5');
    await r.set('lock', 'a');
    const pid = cluster.node('redlock5').pid;
    await cluster.nemesis.kill('redlock5');
    expect(cluster.node('redlock5').pid).toBeUndefined();
    await cluster.nemesis.restart('redlock5');
    expect(cluster.node('redlock5').pid).not.toBe(pid);
    expect(await (await connect('redlock5')).get('lock')).toBeNull();
  });

  it('keeps the key with appendonly yes, even killed right after the write', async () => {
    const r = await connect('redis1');
    expect(await r.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    await r.set('lock', 'a');
    // No wait for the everysec fsync: the write is in the page cache, and kill -9 does not lose that.
    await cluster.nemesis.kill('redis1');
    await cluster.nemesis.restart('redis1', { delayMs: 500 });
    expect(await (await connect('redis1')).get('lock')).toBe('a');
  });
});
