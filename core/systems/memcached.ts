/** memcached: a cache server with no built-in lock client; the tooz reference client locks on it. */
import type { LockSystem } from './lock-system.js';

export const memcached: LockSystem = {
  servers: ['memcached'],
  connectsTo: 'memcached',
  token: 'monotonic',
  noBuiltinClient: 'memcached has no built-in lock client: give `--client tooz-memcached` (clients/python/tooz_client.py)',
};
