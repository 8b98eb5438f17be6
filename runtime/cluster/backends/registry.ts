/**
 * The backends registry: a backend's name and options give its spec, which
 * says everything fencecheck does with its servers (command, readiness, stop,
 * the programs it needs, its Debian package, its URL scheme, whom clients
 * connect to, its half of a warm reset and clean check, how to name its
 * leader). Adding a backend is its file here (and its reset's) plus one line
 * below and its layout line in core/cluster/cluster-plan.ts (each a Record
 * over the backend names: the compiler asks for every one), beside its
 * LockSystem in core/systems/ and its lock client.
 */
import type { BackendSpec } from '../../hosts/driver.js';
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

const REGISTRY: Record<BackendName, (opts: BackendOptions) => BackendSpec> = {
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

export function backendSpec(name: BackendName, opts: BackendOptions = {}): BackendSpec {
  return REGISTRY[name](opts);
}
