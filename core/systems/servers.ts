/**
 * The backends' servers by name, in the order `fencecheck up` lists them: each
 * one's ServerSystem, from its backend's file in this folder. The names here
 * are the cluster's backend names (BackendName); a lock system names the
 * servers it runs on (lock-system.ts).
 */
import { etcdServer } from './etcd.js';
import { memcachedServer } from './memcached.js';
import { pgAdvisoryServer } from './pg-advisory.js';
import { pgbouncerServer } from './pg-advisory-pooled.js';
import { postgresServer } from './postgres.js';
import { redisServer } from './redis.js';
import { redisSentinelServer } from './redis-sentinel.js';
import { redlockServer } from './redlock.js';
import type { ServerSystem } from './server-system.js';
import { zookeeperServer } from './zookeeper.js';

export const SERVER_SYSTEMS = {
  redis: redisServer,
  redlock: redlockServer,
  etcd: etcdServer,
  zookeeper: zookeeperServer,
  postgres: postgresServer,
  'redis-sentinel': redisSentinelServer,
  'pg-advisory': pgAdvisoryServer,
  pgbouncer: pgbouncerServer,
  memcached: memcachedServer,
} as const satisfies Record<string, ServerSystem>;

export type BackendName = keyof typeof SERVER_SYSTEMS;

export const BACKENDS: readonly BackendName[] = Object.keys(SERVER_SYSTEMS) as BackendName[];

export function serverSystem(backend: BackendName): ServerSystem {
  return SERVER_SYSTEMS[backend];
}
