/**
 * What a lock run needs to know about the redis-sentinel backend, kept out of
 * the run loop: the server options (min-replicas) it starts the cluster with,
 * the client option (WAIT) it hands each lock client, which backend has a
 * leader to aim faults at. Other backends ignore the two options, as they
 * ignore --redis-persistence (run-options.ts leaves them out of their replay).
 *
 * run-lock-test.ts, run-options.ts, real-world.ts and nemesis-runner.ts
 * call these from one-line hooks.
 */
import type { LeaderBackend } from '../../core/systems/lock-system.js';
import type { BackendOptions } from '../cluster/backends/registry.js';
import type { ClientConfig } from '../../core/client-protocol.js';
import { clusterBackendOf, type LockBackend, type LockService } from '../../core/vocabulary.js';

/** The run options this file reads (a subset of RunOptions). */
export interface SentinelRunOptions {
  backend: LockBackend;
  /** redis-sentinel: `WAIT n` after each grant. */
  waitReplicas?: number;
  /** redis-sentinel: `min-replicas-to-write n` (max lag 1 s) on every data node. */
  minReplicas?: number;
}

export function sentinelClusterOptions(o: SentinelRunOptions): Pick<BackendOptions, 'redisSentinel'> {
  return o.backend === 'redis-sentinel' && (o.minReplicas ?? 0) > 0 ? { redisSentinel: { minReplicas: o.minReplicas!, minReplicasMaxLagS: 1 } } : {};
}

export function sentinelClientOptions(o: SentinelRunOptions): Pick<ClientConfig, 'waitReplicas'> {
  return o.backend === 'redis-sentinel' && (o.waitReplicas ?? 0) > 0 ? { waitReplicas: o.waitReplicas! } : {};
}

/** The cluster whose leader (or master) a `leader` target resolves to, if it has one. */
export function leaderBackendOf(lockBackend: string): LeaderBackend | undefined {
  const backend = clusterBackendOf(lockBackend as LockService);
  return backend === 'etcd' || backend === 'zookeeper' || backend === 'redis-sentinel' ? backend : undefined;
}
