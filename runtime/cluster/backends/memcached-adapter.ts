/** memcached: one cache node (memcached.ts), its reset, and memcached memory pressure for the evict fault. */
import { MemcachedPressure } from '../../nemesis/memcached-pressure.js';
import type { BackendAdapter } from './backend-adapter.js';
import { memcachedSpec } from './memcached.js';
import { memcachedReset } from './memcached-reset.js';

export const memcachedAdapter: BackendAdapter = {
  spec: () => memcachedSpec(),
  reset: memcachedReset,
  pressure: (node, policy, onLockKeyEvicted) => new MemcachedPressure(node.plan.ip, node.plan.port, policy, onLockKeyEvicted),
};
