/**
 * The per-backend half of a warm cluster's reset and clean check, one small
 * entry per backend (a backend added to src/cluster/backends/registry.ts adds
 * one line here): `reset` clears the lock state and brings roles back as
 * planned, `check` says what is left. Both are asked over the network, of the
 * real servers.
 */
import type { BackendName, ClusterPlan, NodePlan } from '../../../core/cluster/cluster-plan.js';
import { etcdReset } from './etcd-reset.js';
import { memcachedReset } from './memcached-reset.js';
import { pgAdvisoryReset, pgbouncerReset } from './pg-advisory-reset.js';
import { postgresReset } from './postgres-reset.js';
import { redisReset } from './redis-reset.js';
import { sentinelReset } from './sentinel-reset.js';
import { zookeeperReset } from './zookeeper-reset.js';

export interface ResetContext {
  plan: ClusterPlan;
  /** This backend's nodes. */
  nodes: readonly NodePlan[];
  log: (line: string) => void;
}

export interface BackendReset {
  /** Clear the lock state, roles back as planned; WarmResetError when it cannot (the pool then starts fresh). */
  reset(ctx: ResetContext): Promise<void>;
  /** The clean check: lock state left, nodes not answering, roles not as planned (each a line; none: clean). */
  check(ctx: ResetContext): Promise<string[]>;
}

const RESETS: Record<BackendName, BackendReset> = {
  redis: redisReset,
  redlock: redisReset,
  etcd: etcdReset,
  zookeeper: zookeeperReset,
  'redis-sentinel': sentinelReset,
  postgres: postgresReset,
  'pg-advisory': pgAdvisoryReset,
  pgbouncer: pgbouncerReset,
  memcached: memcachedReset,
};

export function backendReset(backend: BackendName): BackendReset {
  return RESETS[backend];
}

/** A failure message as one line. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
