/**
 * The lock systems (core/systems/) agree with the rest of what fencecheck
 * knows: each names servers the cluster plan can lay out, connects to one of
 * them, has its leader among them, and the words of vocabulary.ts read them.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../core/cluster/cluster-plan.js';
import { LOCK_SYSTEMS, leaderBackendOf, lockSystem, readersOf, systemClientOptions, systemClusterOptions } from '../../core/systems/registry.js';
import { clusterBackendsOf, LOCK_BACKENDS, LOCK_SERVICES, notApplicable, tokenKindOf } from '../../core/vocabulary.js';

describe('the lock systems', () => {
  it('list every backend once, in the order commands print them', () => {
    expect(LOCK_BACKENDS).toEqual([
      'redis',
      'redlock',
      'redlock-npm',
      'etcd',
      'zookeeper',
      'redis-sentinel',
      'pg-advisory',
      'pg-advisory-pooled',
      'memcached',
      'none',
    ]);
  });

  it('run on servers the cluster plan lays out, connect to one of them and have their leader among them', () => {
    for (const b of LOCK_SERVICES) {
      const s = lockSystem(b);
      expect(s.servers.length, b).toBeGreaterThan(0);
      for (const server of s.servers) expect(BACKENDS, b).toContain(server);
      expect(s.servers, b).toContain(s.connectsTo);
      if (s.leader !== undefined) expect(s.servers, b).toContain(s.leader);
    }
    expect(lockSystem('none').servers).toEqual([]);
    expect(clusterBackendsOf('pg-advisory-pooled')).toEqual(['pgbouncer', 'pg-advisory', 'postgres']);
  });

  it('decide the token kind, and so the fence modes that apply', () => {
    const unique = LOCK_BACKENDS.filter((b) => tokenKindOf(b) === 'unique');
    expect(unique).toEqual(['redlock', 'redlock-npm', 'none']);
    for (const b of unique.filter((x) => x !== 'none')) expect(notApplicable(b, 'fence', [])).toContain('no monotonic fencing token');
  });

  it('keep their own rules and options: etcd refuses clock, redis-sentinel alone reads WAIT and min-replicas', () => {
    expect(notApplicable('etcd', 'none', ['clock'])).toContain('LD_PRELOAD');
    expect(notApplicable('zookeeper', 'none', ['clock'])).toBeUndefined();
    expect(readersOf('waitReplicas')).toEqual(['redis-sentinel']);
    expect(systemClusterOptions({ backend: 'redis-sentinel', minReplicas: 0 })).toEqual({});
    expect(systemClientOptions({ backend: 'etcd', waitReplicas: 2 })).toEqual({});
    expect(Object.keys(LOCK_SYSTEMS).filter((b) => leaderBackendOf(b) !== undefined)).toEqual(['etcd', 'zookeeper', 'redis-sentinel']);
  });
});
