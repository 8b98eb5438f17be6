/** memcached: a cache server with no built-in lock client; the tooz reference client locks on it. */
import type { LockSystem } from './lock-system.js';
import type { ServerSystem } from './server-system.js';

/** `satisfies`, not a type: its noBuiltinClient stays in its type, so the lock clients' table (runtime/clients) is checked to leave it out. */
export const memcached = {
  servers: ['memcached'],
  connectsTo: 'memcached',
  token: 'monotonic',
  evictable: true,
  // memcached evicts the least recently used item of a slab class, whatever its expiry: it has no volatile-lru.
  evictPolicies: ['allkeys-lru'],
  noBuiltinClient: 'memcached has no built-in lock client: give `--client tooz-memcached` (clients/python/tooz_client.py)',
} satisfies LockSystem;

export const memcachedServer: ServerSystem = { layout: { count: 1, stem: 'mc', base: 80, ports: { client: 11211 } } };
