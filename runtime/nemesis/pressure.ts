/**
 * Memory pressure on one cache server, whichever it is (Redis, memcached): the
 * `evict` fault's I/O behind one interface, chosen by the node's backend
 * (its adapter's pressure hook: runtime/cluster/backends/, handed to the
 * Nemesis by the cluster).
 */
import { UnsupportedFaultError } from '../hosts/cluster-errors.js';
import type { ServerHandle } from '../hosts/driver.js';
import type { EvictPolicy } from '../../core/generator/eviction.js';
import type { LockSystem } from '../../core/systems/lock-system.js';
import { LOCK_SYSTEMS } from '../../core/systems/registry.js';
import type { PressureStarted, PressureSummary } from './redis-pressure.js';

export interface Pressure {
  start(): Promise<PressureStarted>;
  stop(): Promise<PressureSummary>;
  close(): void;
}

/** A cache backend's memory pressure on one of its nodes. */
export type PressureHook = (node: ServerHandle, policy: EvictPolicy, onLockKeyEvicted: (key: string) => void) => Pressure;

/** Memory pressure on a node by its backend, or undefined when the backend is no cache. */
export type PressureOf = (node: ServerHandle, policy: EvictPolicy, onLockKeyEvicted: (key: string) => void) => Pressure | undefined;

/** The servers of the evictable lock systems, in their registry's order (`redis, redlock or memcached`). */
function cacheServers(): string {
  const names = [
    ...new Set(Object.values<LockSystem>(LOCK_SYSTEMS).flatMap((s) => (s.evictable === true && s.connectsTo !== undefined ? [s.connectsTo] : []))),
  ];
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? 'cache');
}

export function pressureOn(node: ServerHandle, policy: EvictPolicy, onLockKeyEvicted: (key: string) => void, pressureOf?: PressureOf): Pressure {
  const pressure = pressureOf?.(node, policy, onLockKeyEvicted);
  if (pressure !== undefined) return pressure;
  throw new UnsupportedFaultError(
    `No evict fault on ${node.name}: it is a ${node.backend} node, not a cache.`,
    `Aim \`--nemesis evict\` at a ${cacheServers()} node.`,
  );
}
