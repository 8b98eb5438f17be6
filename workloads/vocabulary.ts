/**
 * The words of a lock run, in one place: the lock backends, the resource
 * modes, the workloads, the kind of token each backend gives, the cluster
 * each runs on, and which combinations do not apply (and why). The CLI, the
 * runner, compare, the scenarios and the client protocol all read them here.
 */
import type { LockWorkload, ResourceMode, TokenKind } from '../checkers/lock/verdict.js';
import type { BackendName } from '../src/cluster/plan.js';
import type { FaultKind } from './generator/nemesis-schedule.js';

export type { LockWorkload, ResourceMode, TokenKind };

export type LockBackend = 'redis' | 'redlock' | 'redlock-npm' | 'etcd' | 'zookeeper' | 'redis-sentinel' | 'pg-advisory' | 'pg-advisory-pooled' | 'memcached';
export const LOCK_BACKENDS: readonly LockBackend[] = ['redis', 'redlock', 'redlock-npm', 'etcd', 'zookeeper', 'redis-sentinel', 'pg-advisory', 'pg-advisory-pooled', 'memcached'];

/** Clusters with no built-in lock client: only a --client runs on them (memcached: the tooz reference client). */
export function builtinClientMissing(backend: LockBackend): string | undefined {
  return backend === 'memcached' ? 'memcached has no built-in lock client: give `--client tooz-memcached` (clients/python/tooz_client.py)' : undefined;
}

export const RESOURCE_MODES: readonly ResourceMode[] = ['none', 'fence', 'fence-claim', 'cas-unique', 'cas-unique-nonatomic'];

export const WORKLOADS: readonly LockWorkload[] = ['mutex', 'lock-counter', 'fenced-write'];

/** The cluster backend a lock backend's clients connect to (the npm Redlock runs on the same five Redis nodes; the pooled advisory lock on PgBouncer). */
export function clusterBackendOf(backend: LockBackend): BackendName {
  return backend === 'redlock-npm' ? 'redlock' : backend === 'pg-advisory-pooled' ? 'pgbouncer' : backend;
}

/** Every cluster backend a lock backend needs: PgBouncer also needs the PostgreSQL behind it. */
export function clusterBackendsOf(backend: LockBackend): BackendName[] {
  return backend === 'pg-advisory-pooled' ? ['pgbouncer', 'pg-advisory'] : [clusterBackendOf(backend)];
}

/** Redlock gives a unique random token, no monotonic one. */
export function tokenKindOf(backend: LockBackend): TokenKind {
  return backend === 'redlock' || backend === 'redlock-npm' ? 'unique' : 'monotonic';
}

/** The backends whose servers are caches with an eviction policy (the evict fault). */
const EVICTABLE: readonly LockBackend[] = ['redis', 'redlock', 'redlock-npm'];

/** Why a combination cannot run, or undefined when it can. */
export function notApplicable(backend: LockBackend, resource: ResourceMode, nemesis: readonly FaultKind[], scripted = false): string | undefined {
  if (tokenKindOf(backend) === 'unique' && (resource === 'fence' || resource === 'fence-claim')) {
    return `${backend} issues no monotonic fencing token, so the resource mode ${resource} does not apply (use none, cas-unique or cas-unique-nonatomic)`;
  }
  if (backend === 'etcd' && nemesis.includes('clock')) {
    return 'etcd is a Go program and ignores LD_PRELOAD, so fencecheck cannot shift its wall clock without changing the real system clock (which it never does); and etcd leases use the monotonic clock anyway';
  }
  if (backend === 'redis-sentinel' && nemesis.includes('delay') && scripted) {
    return 'redis-sentinel clients connect to whichever master the Sentinels name, so a delay proxy cannot sit on their link to the lock service';
  }
  if (nemesis.includes('evict') && !EVICTABLE.includes(backend)) {
    return `the evict fault fills a cache server's memory until it evicts keys; ${backend} is not a cache (use it on ${EVICTABLE.join(', ')})`;
  }
  if (nemesis.includes('delay') && !scripted) {
    return 'the delay nemesis is driven by the named scenarios (`fencecheck scenario`), which put a delay proxy on one chosen link';
  }
  return undefined;
}
