/**
 * The backends registry: every backend's adapter (its spec, its warm reset,
 * its memory pressure), one entry per backend name; the compiler asks for
 * every one. Adding a backend is its ServerSystem (and LockSystem) in
 * core/systems/ with a line in core/systems/servers.ts (and registry.ts),
 * its spec and reset files here, its `<backend>-adapter.ts` and a line
 * below, and its lock client (runtime/clients/create-lock-client.ts).
 */
import type { BackendSpec } from '../../hosts/driver.js';
import type { PressureOf } from '../../nemesis/pressure.js';
import type { BackendName } from '../../../core/cluster/cluster-plan.js';
import type { BackendAdapter, BackendOptions } from './backend-adapter.js';
import { etcdAdapter } from './etcd-adapter.js';
import { memcachedAdapter } from './memcached-adapter.js';
import { pgAdvisoryAdapter } from './pg-advisory-adapter.js';
import { pgbouncerAdapter } from './pgbouncer-adapter.js';
import { postgresAdapter } from './postgres-adapter.js';
import { redisAdapter } from './redis-adapter.js';
import { redisSentinelAdapter } from './redis-sentinel-adapter.js';
import { redlockAdapter } from './redlock-adapter.js';
import { zookeeperAdapter } from './zookeeper-adapter.js';

export type { BackendOptions } from './backend-adapter.js';

export const BACKEND_ADAPTERS: Record<BackendName, BackendAdapter> = {
  redis: redisAdapter,
  redlock: redlockAdapter,
  etcd: etcdAdapter,
  zookeeper: zookeeperAdapter,
  postgres: postgresAdapter,
  'redis-sentinel': redisSentinelAdapter,
  'pg-advisory': pgAdvisoryAdapter,
  pgbouncer: pgbouncerAdapter,
  memcached: memcachedAdapter,
};

export function backendSpec(name: BackendName, opts: BackendOptions = {}): BackendSpec {
  const adapter = BACKEND_ADAPTERS[name];
  return { ...adapter.spec(opts), reset: adapter.reset };
}

/** The evict fault's memory pressure on a node, by its backend (the cluster hands it to its Nemesis); undefined for a backend that is no cache. */
export const pressureOfBackend: PressureOf = (node, policy, onLockKeyEvicted) => BACKEND_ADAPTERS[node.backend].pressure?.(node, policy, onLockKeyEvicted);
