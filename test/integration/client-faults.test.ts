/**
 * Integration (real servers, root): the delay proxy delays a write by the
 * configured time; a client process in its own host can be paused and have
 * its wall clock shifted like a server. Needs `npm run build` (the proxy in a
 * client namespace runs from dist/).
 */
import { createInterface } from 'node:readline';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientProcess } from '../../runtime/hosts/client-host.js';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { clientFromServers } from '../../core/generator/grudge.js';
import { SHARED_MACHINE, cliPath, redisClient, sleep, waitFor } from './helpers.js';

let cluster: Cluster;
let direct: Redis;

beforeAll(async () => {
  cliPath(); // fails early with a clear message when dist/ is missing
  cluster = await startCluster({ ...SHARED_MACHINE, backends: ['redis'], clientHosts: ['c1'] });
  const { ip, port } = cluster.node('redis1').plan;
  direct = redisClient(ip, port);
  await direct.connect();
});

afterAll(async () => {
  direct?.disconnect();
  await cluster?.teardown();
});

/** Run SET through the proxy from inside c1; resolve with when the key became visible on the server (ms after the send). */
async function proxiedSet(port: number, key: string): Promise<{ arrivedMs: number; replyMs: number }> {
  const t0 = Date.now();
  const set = cluster.clientHost('c1').exec(['redis-cli', '-h', '127.0.0.1', '-p', String(port), 'SET', key, 'v']);
  const arrivedMs = await waitFor(`${key} on the server`, async () => ((await direct.get(key)) === 'v' ? Date.now() - t0 : undefined), 5000, 5);
  await set;
  return { arrivedMs, replyMs: Date.now() - t0 };
}

describe('delay proxy', () => {
  it('in a client host, delays a write by the configured time', async () => {
    const proxy = await cluster.nemesis.delayProxy({ on: 'c1', to: 'redis1', delayMs: 400 });
    const slow = await proxiedSet(proxy.port, 'k-slow');
    console.log(`delay 400 ms: write arrived after ${slow.arrivedMs} ms, reply after ${slow.replyMs} ms`);
    expect(slow.arrivedMs).toBeGreaterThanOrEqual(400);
    expect(slow.arrivedMs).toBeLessThan(400 + 300);
    await proxy.setDelay(0);
    const fast = await proxiedSet(proxy.port, 'k-fast');
    console.log(`delay 0 ms: write arrived after ${fast.arrivedMs} ms`);
    expect(fast.arrivedMs).toBeLessThan(300);
  });

  it('carries the client host address, so partitions of the client apply to it', async () => {
    const proxy = await cluster.nemesis.delayProxy({ on: 'c1', to: 'redis1', delayMs: 0 });
    await cluster.nemesis.partition(clientFromServers('c1', ['redis1']));
    const r = await cluster.clientHost('c1').exec(['timeout', '1', 'redis-cli', '-h', '127.0.0.1', '-p', String(proxy.port), 'PING'], { reject: false });
    expect(r.stdout).not.toContain('PONG');
    await cluster.nemesis.heal();
    const ok = await cluster.clientHost('c1').exec(['timeout', '2', 'redis-cli', '-h', '127.0.0.1', '-p', String(proxy.port), 'PING']);
    expect(ok.stdout).toBe('PONG');
  });

  it('on the control host with direction both, delays each way', async () => {
    const proxy = await cluster.nemesis.delayProxy({ to: 'redis1', delayMs: 250, direction: 'both' });
    const r = redisClient(proxy.host, proxy.port, 5000);
    await r.connect();
    const t0 = Date.now();
    await r.ping();
    const ms = Date.now() - t0;
    r.disconnect();
    console.log(`delay 250 ms both ways: PING round trip ${ms} ms`);
    expect(ms).toBeGreaterThanOrEqual(500);
    expect(ms).toBeLessThan(500 + 300);
  });
});

describe('client process faults', () => {
  let ticker: ClientProcess;
  const ticks: { seen: number; clock: number }[] = [];

  beforeAll(() => {
    // Prints its own wall clock (Date.now) every 50 ms.
    ticker = cluster.clientHost('c1').spawn([process.execPath, '-e', 'setInterval(() => console.log(Date.now()), 50)'], { name: 'ticker' });
    createInterface({ input: ticker.child.stdout! }).on('line', (l) => ticks.push({ seen: Date.now(), clock: Number(l) }));
  });

  it('runs in its own namespace with the clock library', async () => {
    await waitFor('ticks', async () => (ticks.length > 3 ? true : undefined), 5000);
    expect(ticker.clockFile).toMatch(/clock\/ticker\.offset$/);
    const last = ticks.at(-1)!;
    expect(Math.abs(last.clock - last.seen)).toBeLessThan(200);
  });

  it('a +20 s clock offset applies at once to the running process', async () => {
    await cluster.nemesis.clockOffset('c1', 20_000);
    const shifted = await waitFor('a shifted tick', async () => ticks.find((t) => t.clock - t.seen > 19_000), 2000, 20);
    expect(shifted.clock - shifted.seen).toBeLessThan(20_300);
    await cluster.nemesis.clockOffset(ticker, 0);
    await waitFor('true time again', async () => (Math.abs(ticks.at(-1)!.clock - ticks.at(-1)!.seen) < 300 ? true : undefined), 2000, 20);
  });

  it('pause stops the process; resume lets it go on', async () => {
    await cluster.nemesis.pause(ticker);
    await sleep(150);
    const before = ticks.length;
    await sleep(800);
    expect(ticks.length).toBe(before);
    await cluster.nemesis.resume(ticker);
    await waitFor('ticks after resume', async () => (ticks.length > before + 2 ? true : undefined), 2000, 20);
  });

  it('kill -9 ends a client process at once', async () => {
    const sleeper = cluster.clientHost('c1').spawn(['sleep', '600'], { name: 'sleeper' });
    await cluster.nemesis.kill(sleeper);
    expect(await sleeper.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(sleeper.running()).toBe(false);
  });
});
