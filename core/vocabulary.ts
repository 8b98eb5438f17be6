/**
 * The words of a lock run, in one place: the lock backends, the resource
 * modes, the workloads, the kind of token each backend gives, the cluster
 * each runs on, and which combinations do not apply (and why). The CLI, the
 * runner, compare, the scenarios and the client protocol all read them here.
 */
import type { LockWorkload, ResourceMode, TokenKind } from './checkers/lock/verdict.js';
import type { BackendName } from './cluster/cluster-plan.js';
import { FAULT_KINDS, type FaultKind } from './generator/nemesis-schedule.js';

export type { LockWorkload, ResourceMode, TokenKind };

/** `none`: no lock service at all; every client goes straight to the resource (the database's own concurrency control). */
export type LockBackend = 'redis' | 'redlock' | 'redlock-npm' | 'etcd' | 'zookeeper' | 'redis-sentinel' | 'pg-advisory' | 'pg-advisory-pooled' | 'memcached' | 'none';
export const LOCK_BACKENDS: readonly LockBackend[] = ['redis', 'redlock', 'redlock-npm', 'etcd', 'zookeeper', 'redis-sentinel', 'pg-advisory', 'pg-advisory-pooled', 'memcached', 'none'];

/** Clusters with no built-in lock client: only a --client runs on them (memcached: the tooz reference client). */
export function builtinClientMissing(backend: LockBackend): string | undefined {
  return backend === 'memcached' ? 'memcached has no built-in lock client: give `--client tooz-memcached` (clients/python/tooz_client.py)' : undefined;
}

/** The backends that are a lock service (client-check checks a client of one). */
export type LockService = Exclude<LockBackend, 'none'>;
export const LOCK_SERVICES = LOCK_BACKENDS.filter((b): b is LockService => b !== 'none');

export const RESOURCE_MODES: readonly ResourceMode[] = ['none', 'fence', 'fence-claim', 'cas-unique', 'cas-unique-nonatomic', 'version', 'for-update'];

/** The modes that guard the resource with the lock's token: without a lock there is none to send. */
const TOKEN_MODES: readonly ResourceMode[] = ['fence', 'fence-claim', 'cas-unique', 'cas-unique-nonatomic'];

/** The modes that are the database's own concurrency control (a version column, a row lock in a transaction): they need no token. */
export const DB_CONTROL_MODES: readonly ResourceMode[] = ['version', 'for-update'];

export const WORKLOADS: readonly LockWorkload[] = ['mutex', 'lock-counter', 'fenced-write'];

/**
 * The faults a seeded schedule drives (`run --nemesis`, `compare --nemeses`): all but the delay, which
 * needs a proxy on one chosen link and is driven by the named scenarios' scripts.
 */
export const SCHEDULED_FAULT_KINDS: readonly FaultKind[] = FAULT_KINDS.filter((f) => f !== 'delay');

/** The cluster backend a lock service's clients connect to (the npm Redlock runs on the same five Redis nodes; the pooled advisory lock on PgBouncer). */
export function clusterBackendOf(backend: LockService): BackendName {
  return backend === 'redlock-npm' ? 'redlock' : backend === 'pg-advisory-pooled' ? 'pgbouncer' : backend;
}

/**
 * The servers a run starts: the lock service's (PgBouncer also needs the PostgreSQL behind it) and the
 * resource's PostgreSQL, or PostgreSQL alone without a lock.
 */
export function clusterBackendsOf(backend: LockBackend): BackendName[] {
  if (backend === 'none') return ['postgres'];
  return [...(backend === 'pg-advisory-pooled' ? (['pgbouncer', 'pg-advisory'] as const) : [clusterBackendOf(backend)]), 'postgres'];
}

/** Redlock gives a unique random token, no monotonic one; no lock gives none, so nothing may be ordered by it. */
export function tokenKindOf(backend: LockBackend): TokenKind {
  return backend === 'redlock' || backend === 'redlock-npm' || backend === 'none' ? 'unique' : 'monotonic';
}

/** The backends whose servers are caches with an eviction policy (the evict fault). */
const EVICTABLE: readonly LockBackend[] = ['redis', 'redlock', 'redlock-npm'];

/** Why a combination cannot run, or undefined when it can. */
export function notApplicable(backend: LockBackend, resource: ResourceMode, nemesis: readonly FaultKind[], scripted = false): string | undefined {
  if (backend === 'none' && TOKEN_MODES.includes(resource)) {
    return `without a lock (--backend none) there is no token, so the resource mode ${resource} does not apply (use none, ${DB_CONTROL_MODES.join(' or ')})`;
  }
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
  if (!scripted && nemesis.some((f) => !SCHEDULED_FAULT_KINDS.includes(f))) {
    return 'the delay nemesis is driven by the named scenarios (`fencecheck scenario`), which put a delay proxy on one chosen link';
  }
  return undefined;
}

/**
 * Why a workload cannot run without a lock, or undefined: the mutex
 * workload's subject is the lock itself, and fenced-write's checkers judge
 * writes against the lock's hand-overs; lock-counter's final counter needs
 * neither.
 */
export function notApplicableWithoutLock(backend: LockBackend, workload: LockWorkload): string | undefined {
  if (backend !== 'none' || workload === 'lock-counter') return undefined;
  return `the ${workload} workload judges ${workload === 'mutex' ? 'the lock itself' : 'writes against the lock\'s hand-overs'}, and --backend none has no lock (use lock-counter)`;
}
