/**
 * LockSystem: everything fencecheck knows of one lock backend as pure data
 * and rules: the servers it runs on, the token it gives (which decides the
 * resource modes that apply: vocabulary.ts), the faults that do not apply to
 * it (and why), the options only it reads, its leader. One file per backend in this folder (beside its
 * ServerSystem: server-system.ts), listed once in registry.ts; the I/O half (its server spec, warm reset,
 * leader probe and evict pressure: runtime/cluster/backends/<backend>-adapter.ts; its lock client:
 * runtime/clients/create-lock-client.ts) lives on the runtime side, so core stays pure. Jepsen's db/client
 * protocols are the model.
 */
import type { EvictPolicy } from '../generator/eviction.js';
import type { TokenKind } from '../checkers/lock/verdict.js';
import type { FaultKind } from '../generator/faults/registry.js';
import type { BackendName } from './servers.js';

/** The run options only some systems read (each system lists its own in `options`). */
export interface SystemRunOptions {
  /** redis-sentinel: `WAIT n` after each grant. */
  waitReplicas?: number;
  /** redis-sentinel: `min-replicas-to-write n` (max lag 1 s) on every data node. */
  minReplicas?: number;
}
export type SystemOption = keyof SystemRunOptions;

/** The server options a system asks its cluster for (runtime/cluster/backends/registry.ts BackendOptions reads them). */
export interface SystemClusterOptions {
  redisSentinel?: { minReplicas: number; minReplicasMaxLagS: number };
}

export interface LockSystem {
  /** The servers of its lock service (the resource's PostgreSQL is started beside them); none without a lock. */
  servers: readonly BackendName[];
  /** The server its clients connect to; absent without a lock. */
  connectsTo?: BackendName;
  /** The token its grants carry: monotonic (fencing) or unique. */
  token: TokenKind;
  /** A cache with an eviction policy (the evict fault applies). */
  evictable?: boolean;
  /** The eviction policies the cache has, when not every one (memcached: LRU over every item). */
  evictPolicies?: readonly EvictPolicy[];
  /**
   * Its lock lives in a session of this lock server, which the server ends
   * under a live holder (the session-end fault; how, per server: runtime/nemesis/session-end.ts).
   * Absent where a lock is a key or a lease (no server session to end; a
   * lease's loss is what a client pause tests).
   */
  sessionLock?: { server: BackendName };
  /** A master with asynchronously replicated replicas that a failover replaces: partitions may cut the master from its replicas, or leave it a minority of the clients (the hunt's master shapes). */
  replicatedMaster?: boolean;
  /** Its cluster has a leader (or master) that a `leader` fault target resolves to. */
  leader?: BackendName;
  /** Why it has no built-in lock client (only a --client runs on it); absent when it has one. */
  noBuiltinClient?: string;
  /** Why these faults do not apply to it, or undefined (scripted: a named scenario's script drives them). */
  faultsNotApplicable?(nemesis: readonly FaultKind[], scripted: boolean): string | undefined;
  /** The run options only it reads (refused for runs without it; left out of other backends' replays). */
  options?: readonly SystemOption[];
  /** The server options it starts its cluster with, from the run options. */
  clusterOptions?(o: SystemRunOptions): SystemClusterOptions;
  /** Its lock's name from the run's base name, where its namespace needs another spelling (ZooKeeper: the lock is a parent znode, an absolute path); the base name otherwise. */
  lockName?(base: string): string;
  /** How often a holder's client renews its lease, as a share of the lease; absent when it does not (vocabulary.ts renewalShareOf). */
  renewalShare?: number;
  /** The options it hands each lock client, from the run options. */
  clientOptions?(o: SystemRunOptions): { waitReplicas?: number };
}
