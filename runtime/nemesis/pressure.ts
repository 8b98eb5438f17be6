/**
 * Memory pressure on one cache server, whichever it is (Redis, memcached): the
 * `evict` fault's I/O behind one interface, chosen by the node's backend.
 */
import { UnsupportedFaultError } from '../hosts/cluster-errors.js';
import type { ServerHandle } from '../hosts/driver.js';
import type { EvictPolicy } from '../../core/generator/eviction.js';
import { MemcachedPressure } from './memcached-pressure.js';
import { RedisPressure, type PressureStarted, type PressureSummary } from './redis-pressure.js';

export interface Pressure {
  start(): Promise<PressureStarted>;
  stop(): Promise<PressureSummary>;
  close(): void;
}

const REDIS_BACKENDS: readonly string[] = ['redis', 'redlock'];

export function pressureOn(node: ServerHandle, policy: EvictPolicy, onLockKeyEvicted: (key: string) => void): Pressure {
  if (REDIS_BACKENDS.includes(node.backend)) return new RedisPressure(node.plan.ip, node.plan.port, policy, onLockKeyEvicted);
  if (node.backend === 'memcached') return new MemcachedPressure(node.plan.ip, node.plan.port, policy, onLockKeyEvicted);
  throw new UnsupportedFaultError(
    `No evict fault on ${node.name}: it is a ${node.backend} node, not a cache.`,
    'Aim `--nemesis evict` at a redis, redlock or memcached node.',
  );
}
