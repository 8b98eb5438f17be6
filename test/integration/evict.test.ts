/**
 * Integration (real servers, root): the evict fault on Redis and on memcached.
 *
 * - On each cache: a lock key with a lease of seconds is evicted within a
 *   second once the cache is under pressure, and one set while the pressure
 *   holds is evicted again within a short hold (the fault's promise);
 *   stopping it puts the memory limit back and deletes every filler.
 * - A run on single Redis with no fence, the evict fault (volatile-lru)
 *   aimed at a held lock: the lock key is evicted (an `evicted` op naming it in the fault
 *   record), a second client is granted the lock meanwhile (a double hold),
 *   and the data is broken; with fence-claim the same run is safe, the fence
 *   refusing the stale holder.
 * - tooz on memcached under the same fault: its lock key is evicted and the
 *   lock is held twice (tooz's memcached driver has no token to fence with).
 *
 * Each cluster or run is torn down by its own afterAll or by the run itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { runLockTest } from '../../src/run/run-lock-test.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { readHistory } from '../../src/history/read-history.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { isFiller } from '../../core/generator/eviction.js';
import { parseMetadumpLine, parseStats } from '../../core/generator/memcached-eviction.js';
import { tcpExchange } from '../../runtime/cluster/probes.js';
import { commandLine, namedClient } from '../../runtime/runner/client-registry.js';
import { SHARED_MACHINE, redisClient, waitFor } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-evict-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

describe('the evict fault on each cache', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ ...SHARED_MACHINE, backends: ['redis', 'memcached'], clientHosts: [], log: (l) => console.log(`  ${l}`) });
  });
  afterAll(async () => {
    await cluster?.teardown();
  });

  it('Redis: a lock key is evicted under pressure, a new one within a hold; the settings come back, the fillers go', async () => {
    const { ip, port } = cluster.node('redis1').plan;
    const r = redisClient(ip, port);
    await r.connect();
    try {
      const before = await r.config('GET', 'maxmemory');
      await r.set('fencecheck-lock', 'a', 'PX', 10_000);
      const evicted: { key: string; at: number }[] = [];
      const started = await cluster.nemesis.evict('redis1', 'allkeys-lru', (key) => evicted.push({ key, at: Date.now() }));
      expect(started.maxmemoryBytes).toBeGreaterThan(started.usedMemoryBytes);
      await waitFor('the first lock key evicted', async () => (evicted.some((e) => e.key === 'fencecheck-lock') ? true : undefined), 2000, 20);
      const setAt = Date.now();
      await r.set('fencecheck-lock', 'b', 'PX', 10_000);
      await waitFor('the second lock key evicted', async () => (evicted.filter((e) => e.key === 'fencecheck-lock').length >= 2 ? true : undefined), 2000, 10);
      const within = evicted.filter((e) => e.key === 'fencecheck-lock')[1]!.at - setAt;
      console.log(`redis: lock key set under pressure evicted after ${within} ms`);
      expect(within).toBeLessThan(1000);
      const summary = await cluster.nemesis.stopEvict('redis1');
      expect(summary.lockKeysEvicted['fencecheck-lock']).toBeGreaterThanOrEqual(2);
      expect(await r.config('GET', 'maxmemory')).toEqual(before);
      expect(await r.keys('fc-evict:*')).toEqual([]);
    } finally {
      r.disconnect();
    }
  });

  it('memcached: a lock key is evicted under pressure, a new one within a hold; the memory limit comes back, the fillers go', async () => {
    const { ip, port } = cluster.node('mc1').plan;
    const ask = (cmd: string, end = /(END|STORED|OK)\r\n$/): Promise<string> => tcpExchange(ip, port, cmd, { timeoutMs: 2000, done: (a) => end.test(a) });
    const limitBefore = parseStats(await ask('stats settings\r\n'))['maxbytes'];
    await ask('set _tooz_fencecheck-lock 0 10 8\r\nclient-1\r\n');
    const evicted: { key: string; at: number }[] = [];
    await cluster.nemesis.evict('mc1', 'allkeys-lru', (key) => evicted.push({ key, at: Date.now() }));
    await waitFor('the first lock key evicted', async () => (evicted.some((e) => e.key === '_tooz_fencecheck-lock') ? true : undefined), 3000, 20);
    const setAt = Date.now();
    await ask('set _tooz_fencecheck-lock 0 10 8\r\nclient-2\r\n');
    await waitFor(
      'the second lock key evicted',
      async () => (evicted.filter((e) => e.key === '_tooz_fencecheck-lock').length >= 2 ? true : undefined),
      3000,
      10,
    );
    const within = evicted.filter((e) => e.key === '_tooz_fencecheck-lock')[1]!.at - setAt;
    console.log(`memcached: lock key set under pressure evicted after ${within} ms`);
    expect(within).toBeLessThan(1000);
    const summary = await cluster.nemesis.stopEvict('mc1');
    expect(summary.evictedKeys).toBeGreaterThan(0);
    // The fillers are paced by the eviction log (core/generator/log-paced-fill.ts): memcached dropped none of its lines.
    console.log(`memcached: ${summary.evictedKeys} evicted, ${summary.fillersWritten} fillers, ${summary.logLinesLost} eviction line(s) lost`);
    expect(summary.logLinesLost).toBe(0);
    expect(summary.lockKeysEvicted['_tooz_fencecheck-lock']).toBeGreaterThanOrEqual(2);
    expect(parseStats(await ask('stats settings\r\n'))['maxbytes']).toBe(limitBefore);
    const left = (await ask('lru_crawler metadump all\r\n'))
      .split(/\r?\n/)
      .map(parseMetadumpLine)
      .filter((i) => i !== null && isFiller(i.key));
    expect(left).toEqual([]);
    // Still a working cache.
    expect(await ask('set after 0 10 1\r\nx\r\n')).toBe('STORED\r\n');
  });
});

const runOptions = (o: Partial<RunOptions>): RunOptions => ({
  ...DEFAULTS,
  backend: 'redis',
  resource: 'none',
  workload: 'lock-counter',
  nemesis: ['evict'],
  // The pressure while a grant is held: the holder's key goes, the next client's SET NX wins. volatile-lru on
  // Redis: the lock key has a TTL and is evicted, the INCR fence counter has none and stays (under allkeys-lru it
  // can go too, and the next grant's token starts again at 1: grant-tokens' finding, not this test's).
  script: [2000, 6000].map((at) => ({
    at,
    until: at + 2500,
    fault: 'evict' as const,
    target: { kind: 'node' as const, node: o.backend === 'memcached' ? 'mc1' : 'redis1' },
    policy: o.backend === 'memcached' ? ('allkeys-lru' as const) : ('volatile-lru' as const),
    trigger: { on: 'held' as const, withinMs: 1500 },
  })),
  timeLimitS: 10,
  clients: 3,
  ttlMs: 3000,
  holdMs: 600,
  rate: 3,
  recoverMs: 1000,
  seed: 1,
  resultsDir,
  ...o,
});

async function evictRun(o: Partial<RunOptions>) {
  const r = await runLockTest(runOptions(o), { log: (l) => console.log(`  ${l}`), ...SHARED_MACHINE });
  const history = await readHistory(join(r.runDir, 'history.jsonl'));
  const evictedLockKeys = history.filter((op) => op.process === 'nemesis' && op.f === 'evicted');
  const results = readResultsJson(r.runDir)!;
  console.log(
    `${o.backend ?? 'redis'}/${o.resource ?? 'none'}: outcome ${results.outcome}, ${evictedLockKeys.length} lock key(s) evicted, ${results.evidence?.protection.doubleHolds} double hold(s), ${results.evidence?.protection.refusals} refusal(s) (${r.runDir})`,
  );
  return { r, results, evictedLockKeys };
}

describe('runs under the evict fault', () => {
  it('single Redis, no fence: the held lock key is evicted, the lock is held twice, the data broken', async () => {
    const { results, evictedLockKeys } = await evictRun({});
    expect(evictedLockKeys.length).toBeGreaterThan(0);
    expect(results.evidence!.faults.applied).toBeGreaterThan(0);
    expect(results.evidence!.protection.doubleHolds).toBeGreaterThan(0);
    expect(results.outcome).toBe('unsafe');
  });

  it('single Redis with fence-claim: the same evictions and double holds, the fence refuses, safe', async () => {
    const { results, evictedLockKeys } = await evictRun({ resource: 'fence-claim' });
    expect(evictedLockKeys.length).toBeGreaterThan(0);
    expect(results.evidence!.protection.doubleHolds).toBeGreaterThan(0);
    expect(results.outcome).toBe('safe');
  });

  it('tooz on memcached: its lock key is evicted and the lock is held twice (no token to fence with)', async () => {
    const { results, evictedLockKeys } = await evictRun({
      backend: 'memcached',
      client: commandLine(namedClient('tooz-memcached')!.argv(projectRoot())),
      workload: 'mutex',
    });
    expect(evictedLockKeys.length).toBeGreaterThan(0);
    expect(results.evidence!.protection.doubleHolds).toBeGreaterThan(0);
    expect(results.valid).toBe(false);
  });
});
