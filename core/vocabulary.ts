/**
 * The words of a lock run, in one place: the lock backends, the resource
 * modes, the workloads, the kind of token each backend gives, the cluster
 * each runs on, and which combinations do not apply (and why). What a
 * backend is comes from its LockSystem (systems/); this file reads them. The CLI, the
 * runner, compare, the scenarios and the client protocol all read them here.
 */
import type { LockWorkload, ResourceMode, TokenKind } from './checkers/lock/verdict.js';
export { isCounterWorkload } from './checkers/lock/verdict.js';
import type { BackendName } from './cluster/cluster-plan.js';
import type { BackendNeed } from './generator/faults/fault-kind.js';
import { FAULT_KINDS, faultSpec, type FaultKind } from './generator/faults/registry.js';
import { LOCK_SYSTEMS, lockSystem, type LockBackend } from './systems/registry.js';
import { workloadOf, WORKLOADS } from './workloads/registry.js';

export type { LockBackend, LockWorkload, ResourceMode, TokenKind };

/** The lock backends, in the order of systems/registry.ts. */
export const LOCK_BACKENDS = Object.keys(LOCK_SYSTEMS) as readonly LockBackend[];

/** Clusters with no built-in lock client: only a --client runs on them (memcached: the tooz reference client). */
export function builtinClientMissing(backend: LockBackend): string | undefined {
  return lockSystem(backend).noBuiltinClient;
}

/** The backends that are a lock service (client-check checks a client of one). */
export type LockService = Exclude<LockBackend, 'none'>;
export const LOCK_SERVICES = LOCK_BACKENDS.filter((b): b is LockService => b !== 'none');

export const RESOURCE_MODES: readonly ResourceMode[] = ['none', 'fence', 'fence-claim', 'cas-unique', 'cas-unique-nonatomic', 'version', 'for-update'];

/** The modes that guard the resource with the lock's token: without a lock there is none to send. */
const TOKEN_MODES: readonly ResourceMode[] = ['fence', 'fence-claim', 'cas-unique', 'cas-unique-nonatomic'];

/** The modes that are the database's own concurrency control (a version column, a row lock in a transaction): they need no token. */
export const DB_CONTROL_MODES: readonly ResourceMode[] = ['version', 'for-update'];

export { WORKLOADS } from './workloads/registry.js';

/**
 * The faults a seeded schedule drives (`run --nemesis`, `compare --nemeses`): all but those whose spec
 * says why not (the delay needs a proxy on one chosen link and is driven by the named scenarios' scripts).
 */
export const SCHEDULED_FAULT_KINDS: readonly FaultKind[] = FAULT_KINDS.filter((f) => faultSpec(f).unscheduled === undefined);

/** The cluster backend a lock service's clients connect to (the npm Redlock runs on the same five Redis nodes; the pooled advisory lock on PgBouncer). */
export function clusterBackendOf(backend: LockService): BackendName {
  return lockSystem(backend).connectsTo!;
}

/**
 * The servers a run starts: the lock service's (PgBouncer also needs the PostgreSQL behind it) and the
 * resource's PostgreSQL, or PostgreSQL alone without a lock.
 */
export function clusterBackendsOf(backend: LockBackend): BackendName[] {
  return [...lockSystem(backend).servers, 'postgres'];
}

/**
 * How often a holder's client renews its lease, as a share of the lease, or
 * undefined when it does not: etcd's clients keep the lease alive every
 * third of its TTL (etcd3's keep-alive, the Go client's session), ZooKeeper's
 * client pings every third of the session timeout. Redis, Redlock and
 * memcached locks expire unless released; a PostgreSQL advisory lock lives
 * with its connection. (The `renew` trigger aims at these moments.)
 */
export function renewalShareOf(backend: LockBackend): number | undefined {
  return lockSystem(backend).renewalShare;
}

/** Redlock gives a unique random token, no monotonic one; no lock gives none, so nothing may be ordered by it. */
export function tokenKindOf(backend: LockBackend): TokenKind {
  return lockSystem(backend).token;
}

/** Whether a backend's LockSystem has what a fault kind needs (a cache's eviction, a session lock). */
const hasNeed = (b: LockBackend, need: BackendNeed): boolean => {
  const v = lockSystem(b)[need];
  return v !== undefined && v !== false;
};

/** Why a combination cannot run, or undefined when it can. */
export function notApplicable(backend: LockBackend, resource: ResourceMode, nemesis: readonly FaultKind[], scripted = false): string | undefined {
  if (backend === 'none' && TOKEN_MODES.includes(resource)) {
    return `without a lock (--backend none) there is no token, so the resource mode ${resource} does not apply (use none, ${DB_CONTROL_MODES.join(' or ')})`;
  }
  if (tokenKindOf(backend) === 'unique' && (resource === 'fence' || resource === 'fence-claim')) {
    return `${backend} issues no monotonic fencing token, so the resource mode ${resource} does not apply (use none, cas-unique or cas-unique-nonatomic)`;
  }
  const own = lockSystem(backend).faultsNotApplicable?.(nemesis, scripted);
  if (own !== undefined) return own;
  // In FAULT_KINDS' order, so that a run with several refused kinds is told of the same one each time.
  for (const kind of FAULT_KINDS.filter((f) => nemesis.includes(f))) {
    const needs = faultSpec(kind).needs;
    if (needs && !hasNeed(backend, needs.backend)) {
      const fitting = LOCK_BACKENDS.filter((b) => hasNeed(b, needs.backend));
      return `${needs.why}; ${needs.lacking(backend)} (use it on ${fitting.join(', ')})`;
    }
  }
  const unscheduled = scripted ? undefined : nemesis.map((f) => faultSpec(f).unscheduled).find((u) => u !== undefined);
  if (unscheduled) return unscheduled.why;
  return undefined;
}

/**
 * Why a workload cannot run without a lock, or undefined: the mutex
 * workload's subject is the lock itself, and fenced-write's checkers judge
 * writes against the lock's hand-overs; lock-counter's final counter and the
 * jobs' done records need neither.
 */
export function notApplicableWithoutLock(backend: LockBackend, workload: LockWorkload): string | undefined {
  const why = workloadOf(workload).withoutLock;
  if (backend !== 'none' || why === undefined) return undefined;
  const can = WORKLOADS.filter((w) => workloadOf(w).withoutLock === undefined).join(' or ');
  return `${why}, and --backend none has no lock (use ${can})`;
}
