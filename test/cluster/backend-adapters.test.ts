/**
 * The backends' adapters (runtime/cluster/backends/registry.ts): the evict fault's pressure hook is there exactly for
 * the servers of the evictable lock systems (core/systems), it picks each cache's own pressure, and any other node is
 * refused with the hint the fault always gave. No server is touched: memcached's pressure connects only on start().
 */
import { describe, expect, it } from 'vitest';
import { BACKEND_ADAPTERS, pressureOfBackend } from '../../runtime/cluster/backends/registry.js';
import { BACKENDS, type BackendName } from '../../core/cluster/cluster-plan.js';
import { LOCK_SYSTEMS } from '../../core/systems/registry.js';
import type { LockSystem } from '../../core/systems/lock-system.js';
import type { ServerHandle } from '../../runtime/hosts/driver.js';
import { MemcachedPressure } from '../../runtime/nemesis/memcached-pressure.js';
import { pressureOn } from '../../runtime/nemesis/pressure.js';
import { UnsupportedFaultError } from '../../runtime/hosts/cluster-errors.js';

const node = (name: string, backend: BackendName): ServerHandle => ({ name, backend, plan: { ip: '10.77.0.9', port: 1 } }) as unknown as ServerHandle;

describe('the backends registry', () => {
  it('has a pressure hook for exactly the servers of the evictable lock systems', () => {
    const evictable = new Set(Object.values<LockSystem>(LOCK_SYSTEMS).flatMap((s) => (s.evictable === true && s.connectsTo ? [s.connectsTo] : [])));
    expect(BACKENDS.filter((b) => BACKEND_ADAPTERS[b].pressure !== undefined)).toEqual(BACKENDS.filter((b) => evictable.has(b)));
    expect(BACKEND_ADAPTERS.redlock.pressure).toBe(BACKEND_ADAPTERS.redis.pressure);
  });

  it("puts a memcached node under memcached's pressure", () => {
    const p = pressureOn(node('mc1', 'memcached'), 'allkeys-lru', () => undefined, pressureOfBackend);
    expect(p).toBeInstanceOf(MemcachedPressure);
    p.close();
  });

  it('refuses the evict fault on a node that is no cache, naming the caches', () => {
    const refuse = () => pressureOn(node('etcd1', 'etcd'), 'allkeys-lru', () => undefined, pressureOfBackend);
    expect(refuse).toThrow(UnsupportedFaultError);
    expect(refuse).toThrow('No evict fault on etcd1: it is a etcd node, not a cache.');
    try {
      refuse();
    } catch (err) {
      expect((err as UnsupportedFaultError).hint).toBe('Aim `--nemesis evict` at a redis, redlock or memcached node.');
    }
  });
});
