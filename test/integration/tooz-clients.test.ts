/**
 * Integration (real servers, root): the four tooz reference clients
 * (clients/python/tooz_client.py: memcached, redis, zookeeper, etcd3gw) keep
 * the client contract on one real cluster, memcached included; each
 * announces no token (tooz's Lock API has none), so its paused holder's
 * stale write goes through, as announced. Needs Debian's python3-tooz,
 * python3-pymemcache, python3-etcd3gw (`npm run setup`) and `npm run build`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { StateFile } from '../../runtime/hosts/state-file.js';
import { checkClientOn } from '../../runtime/client-check/run-client-check.js';
import { commandLine, namedClient } from '../../runtime/runner/client-registry.js';
import type { LockService } from '../../core/vocabulary.js';
import { leftovers, NOTHING_LEFT, SHARED_MACHINE, withClusterLock } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-tooz-'));
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    backends: ['memcached', 'redis', 'zookeeper', 'etcd', 'postgres'],
    clientHosts: ['c1', 'c2'],
    runDir: join(resultsDir, 'cluster'),
    ...SHARED_MACHINE,
  });
});

afterAll(async () => {
  await cluster?.teardown();
  rmSync(resultsDir, { recursive: true, force: true });
});

describe('tooz reference clients', () => {
  it.each<[string, LockService]>([
    ['tooz-memcached', 'memcached'],
    ['tooz-redis', 'redis'],
    ['tooz-zookeeper', 'zookeeper'],
    ['tooz-etcd3gw', 'etcd'],
  ])('%s passes client-check with no token, its paused holder unprotected as announced', async (name, backend) => {
    const command = commandLine(namedClient(name)!.argv(projectRoot()));
    const r = await checkClientOn(cluster, {
      backend,
      client: command,
      callTimeoutMs: 1000,
      onCheck: (c) => console.log(`  ${name} ${c.status} ${c.check}: ${c.evidence}`),
    });
    expect(r.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(r.token).toBe('none');
    expect(r.checks.find((c) => c.check === 'exclusion')?.status).toBe('pass');
    // The lock passed on during A's pause and nothing refused A's late write: the danger happened, unprotected.
    expect(r.checks.find((c) => c.check === 'paused-holder')?.status).toBe('warn');
  });

  it('leaves nothing after teardown (memcached included)', async () => {
    const processes = StateFile.read(cluster.stateFile)!.processes;
    expect(processes.some((p) => p.comm === 'memcached')).toBe(true);
    await cluster.teardown();
    expect(await withClusterLock(() => leftovers(processes))).toEqual(NOTHING_LEFT);
  });
});
