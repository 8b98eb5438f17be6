/** memcached: a cache server with no built-in lock client; the tooz reference client locks on it. */
import type { LockSystem } from './lock-system.js';

export const memcached: LockSystem = {
  servers: ['memcached'],
  connectsTo: 'memcached',
  token: 'monotonic',
  evictable: true,
  // memcached evicts the least recently used item of a slab class, whatever its expiry: it has no volatile-lru.
  evictPolicies: ['allkeys-lru'],
  noBuiltinClient: 'memcached has no built-in lock client: give `--client tooz-memcached` (clients/python/tooz_client.py)',
};
