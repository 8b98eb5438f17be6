/**
 * The lock clients registry: a backend's name to its LockClient.
 */
import { EtcdLockClient } from './etcd-client.js';
import type { LockClient, LockClientOptions } from './lock-client.js';
import { NoLockClient } from './no-lock-client.js';
import type { ClientConfig } from './protocol.js';
import { PgAdvisoryLockClient, PgAdvisoryPooledLockClient } from './pg-advisory-client.js';
import { RedisLockClient } from './redis-client.js';
import { RedlockClient } from './redlock-client.js';
import { RedlockNpmClient } from './redlock-npm-client.js';
import { SentinelLockClient } from './sentinel-client.js';
import { ZooKeeperLockClient } from './zookeeper-client.js';
import type { LockBackend } from '../vocabulary.js';

/** memcached has none (vocabulary.ts builtinClientMissing): the runner refuses such a run before anything starts. */
const CLIENTS: Record<Exclude<LockBackend, 'memcached'>, new (o: LockClientOptions) => LockClient> = {
  redis: RedisLockClient,
  redlock: RedlockClient,
  'redlock-npm': RedlockNpmClient,
  etcd: EtcdLockClient,
  zookeeper: ZooKeeperLockClient,
  'redis-sentinel': SentinelLockClient,
  none: NoLockClient,
  'pg-advisory': PgAdvisoryLockClient,
  'pg-advisory-pooled': PgAdvisoryPooledLockClient,
};

export function createLockClient(config: ClientConfig, log: (line: string) => void): LockClient {
  if (config.backend === 'memcached') throw new RangeError('memcached has no built-in lock client');
  return new CLIENTS[config.backend]({
    endpoints: config.lockEndpoints,
    lockName: config.lockName,
    callTimeoutMs: config.callTimeoutMs,
    ...(config.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: config.sessionTimeoutMs } : {}),
    ...(config.waitReplicas !== undefined ? { waitReplicas: config.waitReplicas } : {}),
    log,
  });
}

