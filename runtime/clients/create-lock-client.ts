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
import { hasBuiltinClient, type NoBuiltinClientBackend } from '../../core/systems/registry.js';
import type { ClientRuntime } from './client-runtime.js';

export type LockClientClass = new (o: LockClientOptions) => LockClient;

/**
 * One loader per backend with a built-in client. A backend whose LockSystem gives noBuiltinClient (core/systems) has
 * none and is left out, checked by the type (vocabulary.ts builtinClientMissing: the runner refuses such a run before
 * anything starts). The table stays beside the clients: runtime/clients imports core only, and a client process loads
 * nothing but its own backend's library.
 */
const CLIENTS: Record<Exclude<LockBackend, NoBuiltinClientBackend>, () => Promise<LockClientClass>> = {
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

/** The class of a backend's built-in lock client, loaded on first use. */
export async function loadLockClient(backend: LockBackend): Promise<LockClientClass> {
  if (!hasBuiltinClient(backend)) throw new RangeError(`${backend} has no built-in lock client`);
  return CLIENTS[backend]();
}

/** A client's options from its process's configuration. */
export function lockClientOptions(config: ClientConfig, log: (line: string) => void, runtime?: ClientRuntime): LockClientOptions {
  return {
    endpoints: config.lockEndpoints,
    lockName: config.lockName,
    callTimeoutMs: config.callTimeoutMs,
    ...(config.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: config.sessionTimeoutMs } : {}),
    ...(config.waitReplicas !== undefined ? { waitReplicas: config.waitReplicas } : {}),
    log,
    ...(runtime !== undefined ? { runtime } : {}),
  };
}

/** `runtime`: the client's clock, randomness and transports (client-runtime.ts); absent: the real ones. */
export async function createLockClient(config: ClientConfig, log: (line: string) => void, runtime?: ClientRuntime): Promise<LockClient> {
  const Client = await loadLockClient(config.backend);
  return new Client(lockClientOptions(config, log, runtime));
}
