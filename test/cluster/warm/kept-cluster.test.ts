/**
 * A kept cluster (`fencecheck up --keep`): whether it fits a run (pure), and
 * the warm pool over stand-in clusters: it adopts a kept cluster that fits,
 * resets and checks it before the first run, adds the client hosts a run
 * lacks, and keeps it (not tears it down) at the end; a misfit starts fresh
 * and says why.
 */
import { describe, expect, it, vi } from 'vitest';
import { keptMismatch, keptOptionsOf } from '../../../runtime/cluster/kept-cluster.js';
import { WarmPool, type AdoptFn } from '../../../runtime/runner/warm-pool.js';
import type { Cluster } from '../../../runtime/cluster/cluster.js';
import type { StartClusterOptions } from '../../../runtime/cluster/start-cluster.js';

vi.mock('../../../runtime/cluster/warm/reset-cluster.js', () => ({
  resetCluster: async () => [],
  cleanCheck: async () => ({ ok: true, problems: [], ms: 1 }),
}));

const up: StartClusterOptions = {
  backends: ['redis', 'postgres'],
  redis: { persistence: 'none' },
  redlock: { persistence: 'none' },
  clientHosts: ['c1'],
  detach: true,
  runDir: '/r/up',
};
const run: StartClusterOptions = {
  backends: ['redis', 'postgres'],
  redis: { persistence: 'none' },
  clientHosts: ['c1', 'c2', 'c3'],
  runDir: '/r/run',
  busyTimeoutMs: 5,
};

describe('keptMismatch', () => {
  it("fits a run that names only its own backend's options and other client hosts", () => {
    expect(keptMismatch(keptOptionsOf(up), run)).toBeUndefined();
    expect(
      keptMismatch(keptOptionsOf({ backends: ['zookeeper', 'postgres'] }), { backends: ['postgres', 'zookeeper'], zookeeper: { tickTimeMs: 500 } }),
    ).toBeUndefined();
  });

  it('names every difference: backends, persistence, tick time, provider, subnet', () => {
    expect(keptMismatch(keptOptionsOf(up), { ...run, backends: ['etcd', 'postgres'] })).toBe(
      'backends: kept postgres, redis, the run needs etcd, postgres; redis persistence: kept none, the run needs (none)',
    );
    expect(keptMismatch(keptOptionsOf(up), { ...run, redis: { persistence: 'aof-always' } })).toBe('redis persistence: kept none, the run needs aof-always');
    expect(keptMismatch(keptOptionsOf({ backends: ['zookeeper', 'postgres'] }), { backends: ['zookeeper', 'postgres'], zookeeper: { tickTimeMs: 250 } })).toBe(
      'zookeeper tickTime: kept 500 ms, the run needs 250 ms',
    );
    expect(keptMismatch(keptOptionsOf(up), { ...run, provider: 'containers' })).toContain('provider: kept namespaces, the run needs containers');
    expect(keptMismatch(keptOptionsOf(up), { ...run, subnet: '10.78.0.0/24' })).toBe('subnet: kept 10.77.0.0/24, the run needs 10.78.0.0/24');
  });

  it('records what the servers were started with, not where this command logged', () => {
    const k = keptOptionsOf({ ...up, log: () => undefined, stateFile: '/x' });
    expect(k).toEqual({
      backends: ['redis', 'postgres'],
      redis: { persistence: 'none' },
      redlock: { persistence: 'none' },
      clientHosts: ['c1'],
      subnet: '10.77.0.0/24',
    });
  });
});

/** A stand-in cluster: its client hosts, and what was done to it. */
function fakeCluster(hosts: string[]) {
  const done: string[] = [];
  const names = [...hosts];
  const cluster = {
    provider: 'namespaces',
    clientHosts: () => names.map((name) => ({ name })),
    addClientHost: async (name: string) => {
      names.push(name);
      done.push(`add ${name}`);
    },
    spares: { stopAll: async () => void done.push('stop spares') },
    keep: async (k: { runs: number; options: { clientHosts: string[] } }) =>
      void done.push(`keep after ${k.runs} runs with ${k.options.clientHosts.join(',')}`),
    teardown: async () => void done.push('teardown'),
  };
  return { cluster: cluster as unknown as Cluster, done };
}

describe('WarmPool and a kept cluster', () => {
  it("adopts it, resets and checks it, adds the run's client hosts, and keeps it at the end", async () => {
    const kept = fakeCluster(['c1']);
    const started: StartClusterOptions[] = [];
    const adopt: AdoptFn = async () => ({ cluster: kept.cluster, runs: 4 });
    const pool = new WarmPool(async (o) => (started.push(o), fakeCluster([]).cluster), adopt);
    const lines: string[] = [];
    const first = await pool.take(run, (l) => lines.push(l));
    expect(first.cluster).toBe(kept.cluster);
    expect(first.record).toMatchObject({ fresh: false, reusedAfterRuns: 4, cleanCheck: { ok: true } });
    const second = await pool.take(run, () => undefined);
    expect(second.record).toMatchObject({ fresh: false, reusedAfterRuns: 5 });
    await pool.close();
    expect(started).toEqual([]);
    // Its spares (children of this process) stopped first: the next command gets none.
    expect(kept.done).toEqual(['add c2', 'add c3', 'stop spares', 'keep after 6 runs with c1,c2,c3']);
    expect(lines).toContain('warm cluster: resetting after 4 runs');
  });

  it('starts fresh when the kept cluster does not fit, says why, and keeps the fresh one in its place', async () => {
    const fresh = fakeCluster(['c1', 'c2', 'c3']);
    const pool = new WarmPool(
      async () => fresh.cluster,
      async () => ({ because: 'the cluster kept by `fencecheck up --keep` does not fit this run (redis persistence: kept none, the run needs aof-always)' }),
    );
    const { record } = await pool.take(run, () => undefined);
    expect(record.fresh).toBe(true);
    expect(record.freshBecause).toContain('does not fit this run (redis persistence');
    await pool.close();
    expect(fresh.done).toEqual(['stop spares', 'keep after 1 runs with c1,c2,c3']);
  });

  it('asks for a kept cluster once per command, and without one behaves as before', async () => {
    let asked = 0;
    const fresh = fakeCluster(['c1', 'c2', 'c3']);
    const pool = new WarmPool(
      async () => fresh.cluster,
      async () => (asked++, undefined),
    );
    expect((await pool.take(run, () => undefined)).record).toMatchObject({ fresh: true, reusedAfterRuns: 0 });
    expect((await pool.take(run, () => undefined)).record).toMatchObject({ fresh: false, reusedAfterRuns: 1 });
    await pool.close();
    expect(asked).toBe(1);
    expect(fresh.done).toEqual(['teardown']);
  });
});
