/**
 * The lock clients registry: a backend's name to its LockClient. Each is
 * loaded when asked for: a client process loads only its own backend's
 * library (etcd3's gRPC stack and the native ZooKeeper client take most of a
 * second to load on a busy 2-core machine, and every run starts a few
 * clients).
 */
import type { LockClient, LockClientOptions } from './lock-client.js';
import { NoLockClient } from './no-lock-client.js';
import type { ClientConfig } from '../../core/client-protocol.js';
import type { LockBackend } from '../../core/vocabulary.js';

type LockClientClass = new (o: LockClientOptions) => LockClient;

/** memcached has none (vocabulary.ts builtinClientMissing): the runner refuses such a run before anything starts. */
const CLIENTS: Record<Exclude<LockBackend, 'memcached'>, () => Promise<LockClientClass>> = {
  redis: async () => (await import('./redis-client.js')).RedisLockClient,
  redlock: async () => (await import('./redlock-client.js')).RedlockClient,
  'redlock-npm': async () => (await import('./redlock-npm-client.js')).RedlockNpmClient,
  etcd: async () => (await import('./etcd-client.js')).EtcdLockClient,
  zookeeper: async () => (await import('./zookeeper-client.js')).ZooKeeperLockClient,
  'redis-sentinel': async () => (await import('./sentinel-client.js')).SentinelLockClient,
  none: async () => NoLockClient,
  'pg-advisory': async () => (await import('./pg-advisory-client.js')).PgAdvisoryLockClient,
  'pg-advisory-pooled': async () => (await import('./pg-advisory-client.js')).PgAdvisoryPooledLockClient,
};

export async function createLockClient(config: ClientConfig, log: (line: string) => void): Promise<LockClient> {
  if (config.backend === 'memcached') throw new RangeError('memcached has no built-in lock client');
  const Client = await CLIENTS[config.backend]();
  return new Client({
    endpoints: config.lockEndpoints,
    lockName: config.lockName,
    callTimeoutMs: config.callTimeoutMs,
    ...(config.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: config.sessionTimeoutMs } : {}),
    ...(config.waitReplicas !== undefined ? { waitReplicas: config.waitReplicas } : {}),
    log,
  });
}
