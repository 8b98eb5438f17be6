/**
 * Integration (real servers, root): killing the etcd leader yields a new
 * leader, and the killed member rejoins on restart; pausing the ZooKeeper
 * leader yields a new leader, and the old one follows after resume.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { UnsupportedFaultError } from '../../runtime/hosts/cluster-errors.js';
import { zookeeperMode } from '../../runtime/cluster/backends/zookeeper.js';
import { SHARED_MACHINE, waitFor } from './helpers.js';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({ ...SHARED_MACHINE, backends: ['etcd', 'zookeeper'] });
});

afterAll(async () => {
  await cluster?.teardown();
});

async function newLeader(backend: 'etcd' | 'zookeeper', old: string, timeoutMs: number): Promise<{ leader: string; ms: number }> {
  const t0 = Date.now();
  const leader = await waitFor(
    `a new ${backend} leader`,
    async () => {
      const l = await cluster.leader(backend);
      return l !== undefined && l !== old ? l : undefined;
    },
    timeoutMs,
  );
  return { leader, ms: Date.now() - t0 };
}

describe('etcd', () => {
  it('kill -9 of the leader yields a new leader; the old member rejoins on restart', async () => {
    const old = await waitFor('an etcd leader', () => cluster.leader('etcd'), 10_000);
    await cluster.nemesis.kill(old);
    const { leader, ms } = await newLeader('etcd', old, 15_000);
    console.log(`etcd: killed leader ${old}; ${leader} leads after ${ms} ms`);
    expect(leader).not.toBe(old);
    await cluster.nemesis.restart(old, { delayMs: 200 });
    // Ready means healthy: the restarted member sees a leader and serves a quorum read.
    for (const n of cluster.nodesOf('etcd')) await n.ready(10_000);
  });

  it('refuses a clock fault on etcd and says why', async () => {
    const err = await cluster.nemesis.clockOffset('etcd1', 1000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedFaultError);
    expect((err as Error).message).toMatch(/Go program/);
  });
});

describe('zookeeper', () => {
  it('pausing the leader yields a new leader; after resume the old one follows', async () => {
    const old = await waitFor('a zookeeper leader', () => cluster.leader('zookeeper'), 10_000);
    await cluster.nemesis.pause(old);
    try {
      const { leader, ms } = await newLeader('zookeeper', old, 20_000);
      console.log(`zookeeper (tickTime 500 ms): paused leader ${old}; ${leader} leads after ${ms} ms`);
      expect(leader).not.toBe(old);
    } finally {
      await cluster.nemesis.resume(old);
    }
    // The old leader may still claim leadership for a moment after it wakes; it must step down and follow.
    const mode = await waitFor(`${old} to follow`, async () => ((await zookeeperMode(cluster.node(old).plan)) === 'follower' ? 'follower' : undefined), 20_000);
    expect(mode).toBe('follower');
  });

  it('kill -9 and restart of a member keeps the full ensemble (no standalone)', async () => {
    const before = cluster.node('zk3').pid;
    await cluster.nemesis.restart('zk3');
    expect(cluster.node('zk3').pid).not.toBe(before);
    // A member started with only itself would say `standalone`.
    expect(['leader', 'follower']).toContain(await zookeeperMode(cluster.node('zk3').plan));
    const modes = await Promise.all(cluster.nodesOf('zookeeper').map((n) => zookeeperMode(n.plan)));
    expect(modes.filter((m) => m === 'leader')).toHaveLength(1);
  });
});
