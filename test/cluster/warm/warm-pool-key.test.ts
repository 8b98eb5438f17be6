import { describe, expect, it } from 'vitest';
import { clusterKey } from '../../../runtime/runner/warm-pool.js';
import { executionOrder, type PlannedRun } from '../../../src/compare/compare-spec.js';

describe('clusterKey', () => {
  const base = { backends: ['redis', 'postgres'] as const, clientHosts: ['c1', 'c2'], redis: { persistence: 'none' as const } };
  it('ignores where and how a run logs and how long it waits for the machine', () => {
    expect(clusterKey({ ...base, backends: [...base.backends], runDir: '/a', log: () => undefined, busyTimeoutMs: 5 })).toBe(
      clusterKey({ ...base, backends: ['postgres', 'redis'], runDir: '/b' }),
    );
  });
  it('differs by backend, cluster options, client hosts and provider', () => {
    const k = clusterKey({ ...base, backends: [...base.backends] });
    expect(clusterKey({ ...base, backends: ['etcd', 'postgres'] })).not.toBe(k);
    expect(clusterKey({ ...base, backends: [...base.backends], redis: { persistence: 'aof-always' } })).not.toBe(k);
    expect(clusterKey({ ...base, backends: [...base.backends], clientHosts: ['c1', 'c2', 'c3'] })).not.toBe(k);
    expect(clusterKey({ ...base, backends: [...base.backends], provider: 'containers' })).not.toBe(k);
  });
});

describe('executionOrder', () => {
  it("runs one backend's runs in a row, in plan order, keeping indexes and ids", () => {
    const backend = ['redis', 'etcd', 'redis', 'zookeeper', 'etcd', 'redis'];
    const runs: PlannedRun[] = backend.map((b, index) => ({ index, id: `${b}-${index}`, cellId: b, seed: index }));
    const order = executionOrder(runs, (r) => r.cellId);
    expect(order.map((r) => r.index)).toEqual([0, 2, 5, 1, 4, 3]);
    expect(order.map((r) => r.id).sort()).toEqual(runs.map((r) => r.id).sort());
  });
});
