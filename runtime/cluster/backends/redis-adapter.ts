/** redis: one Redis server (redis.ts), its reset, and Redis memory pressure for the evict fault. */
import { RedisPressure } from '../../nemesis/redis-pressure.js';
import type { BackendAdapter } from './backend-adapter.js';
import { redisSpec } from './redis.js';
import { redisReset } from './redis-reset.js';

export const redisAdapter: BackendAdapter = {
  spec: (o) => redisSpec('redis', o.redis),
  reset: redisReset,
  pressure: (node, policy, onLockKeyEvicted) => new RedisPressure(node.plan.ip, node.plan.port, policy, onLockKeyEvicted),
};
