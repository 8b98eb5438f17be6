/**
 * The lock systems by name, in the order commands list them. Adding a backend
 * is one file in this folder (its LockSystem and ServerSystem) and one line
 * here and in servers.ts, plus its adapter on the runtime side
 * (runtime/cluster/backends/registry.ts says what that takes).
 */
import type { BackendName } from './servers.js';
import { etcd } from './etcd.js';
import type { LockSystem, SystemClusterOptions, SystemOption, SystemRunOptions } from './lock-system.js';
import { memcached } from './memcached.js';
import { none } from './none.js';
import { pgAdvisory } from './pg-advisory.js';
import { pgAdvisoryPooled } from './pg-advisory-pooled.js';
import { redis } from './redis.js';
import { redisSentinel } from './redis-sentinel.js';
import { redlock } from './redlock.js';
import { redlockNpm } from './redlock-npm.js';
import { zookeeper } from './zookeeper.js';

export const LOCK_SYSTEMS = {
  redis,
  redlock,
  'redlock-npm': redlockNpm,
  etcd,
  zookeeper,
  'redis-sentinel': redisSentinel,
  'pg-advisory': pgAdvisory,
  'pg-advisory-pooled': pgAdvisoryPooled,
  memcached,
  none,
} as const satisfies Record<string, LockSystem>;

/**
 * The backends with a leader (or master) that faults can aim at: those whose LockSystem names one (etcd, zookeeper and
 * redis-sentinel, each `satisfies LockSystem` so its leader stays in its type).
 */
export type LeaderBackend = { [K in keyof typeof LOCK_SYSTEMS]: (typeof LOCK_SYSTEMS)[K] extends { leader: infer L } ? L : never }[keyof typeof LOCK_SYSTEMS];

/** `none`: no lock service at all; every client goes straight to the resource (the database's own concurrency control). */
export type LockBackend = keyof typeof LOCK_SYSTEMS;

export function lockSystem(backend: LockBackend): LockSystem {
  return LOCK_SYSTEMS[backend];
}

/** The backends whose LockSystem says they have no built-in lock client (memcached), as a type: the lock clients' table leaves exactly these out. */
export type NoBuiltinClientBackend = { [K in LockBackend]: (typeof LOCK_SYSTEMS)[K] extends { noBuiltinClient: string } ? K : never }[LockBackend];

/** Whether a backend has a built-in lock client (its LockSystem gives no reason why not). */
export function hasBuiltinClient(backend: LockBackend): backend is Exclude<LockBackend, NoBuiltinClientBackend> {
  return lockSystem(backend).noBuiltinClient === undefined;
}

/** The run options a lock system reads (a subset of RunOptions). */
export type SystemRun = SystemRunOptions & { backend: LockBackend };

/** The server options the run's system starts its cluster with (redis-sentinel: min-replicas); none for most. */
export function systemClusterOptions(o: SystemRun): SystemClusterOptions {
  return lockSystem(o.backend).clusterOptions?.(o) ?? {};
}

/** The lock's name on this backend for a base name (ZooKeeper: `/base`, the lock's parent znode). */
export function lockNameOf(backend: LockBackend, base: string): string {
  return lockSystem(backend).lockName?.(base) ?? base;
}

/** The options the run's system hands each lock client (redis-sentinel: WAIT); none for most. */
export function systemClientOptions(o: SystemRun): { waitReplicas?: number } {
  return lockSystem(o.backend).clientOptions?.(o) ?? {};
}

/** The cluster whose leader (or master) a `leader` target resolves to, if it has one. */
export function leaderBackendOf(lockBackend: string): LeaderBackend | undefined {
  // A system's leader is a LeaderBackend: the type is read from the systems that name one.
  return (LOCK_SYSTEMS as Record<string, LockSystem | undefined>)[lockBackend]?.leader as LeaderBackend | undefined;
}

/** The server whose sessions hold the lock (the session-end fault ends one), if the lock is a session's. */
export function sessionServerOf(lockBackend: string): BackendName | undefined {
  return (LOCK_SYSTEMS as Record<string, LockSystem | undefined>)[lockBackend]?.sessionLock?.server;
}

/** The backends that read a system option (run-options.ts refuses the option for runs with none of them). */
export function readersOf(option: SystemOption): LockBackend[] {
  return (Object.keys(LOCK_SYSTEMS) as LockBackend[]).filter((b) => lockSystem(b).options?.includes(option) === true);
}
