/**
 * The backends registry: a backend's name and options give its spec, which
 * says everything fencecheck does with its servers (command, readiness, stop,
 * the programs it needs, its Debian package, its URL scheme, whom clients
 * connect to, its half of a warm reset and clean check, how to name its
 * leader). Adding a backend is its file here and its reset's, plus a line in
 * each table below and its layout line in core/cluster/cluster-plan.ts (each a Record
 * over the backend names: the compiler asks for every one), beside its
 * LockSystem in core/systems/ and its lock client.
 */
import type { BackendReset, BackendSpec, ServerSpec } from '../../hosts/driver.js';
import { etcdReset } from './etcd-reset.js';
import { memcachedReset } from './memcached-reset.js';
import { pgAdvisoryReset, pgbouncerReset } from './pg-advisory-reset.js';
import { postgresReset } from './postgres-reset.js';
import { redisReset } from './redis-reset.js';
import { sentinelReset } from './sentinel-reset.js';
import { zookeeperReset } from './zookeeper-reset.js';
import type { BackendName } from '../../../core/cluster/cluster-plan.js';
import { etcdSpec } from './etcd.js';
import { memcachedSpec } from './memcached.js';
import { pgbouncerSpec } from './pgbouncer.js';
import { postgresSpec } from './postgres.js';
import { redisSpec, type RedisOptions } from './redis.js';
import { redisSentinelSpec, type RedisSentinelOptions } from './redis-sentinel.js';
import { redlockSpec } from './redlock.js';
import { zookeeperSpec, type ZookeeperOptions } from './zookeeper.js';

export interface BackendOptions {
  redis?: RedisOptions;
  redlock?: RedisOptions;
  zookeeper?: ZookeeperOptions;
  redisSentinel?: RedisSentinelOptions;
}

const REGISTRY: Record<BackendName, (opts: BackendOptions) => ServerSpec> = {
  redis: (o) => redisSpec('redis', o.redis),
  redlock: (o) => redlockSpec(o.redlock),
  etcd: () => etcdSpec(),
  zookeeper: (o) => zookeeperSpec(o.zookeeper),
  postgres: () => postgresSpec(),
  'redis-sentinel': (o) => redisSentinelSpec(o.redisSentinel),
  'pg-advisory': () => postgresSpec('pg-advisory'),
  pgbouncer: () => pgbouncerSpec(),
  memcached: () => memcachedSpec(),
};

/** Each backend's half of a warm reset, beside its spec here: a reset module reads its spec module's constants at load, so the spec cannot import it. */
const RESETS: Record<BackendName, BackendReset> = {
  redis: redisReset,
  redlock: redisReset,
  etcd: etcdReset,
  zookeeper: zookeeperReset,
  postgres: postgresReset,
  'redis-sentinel': sentinelReset,
  'pg-advisory': pgAdvisoryReset,
  pgbouncer: pgbouncerReset,
  memcached: memcachedReset,
};

export function backendSpec(name: BackendName, opts: BackendOptions = {}): BackendSpec {
  return { ...REGISTRY[name](opts), reset: RESETS[name] };
}
