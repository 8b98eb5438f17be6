/** redis: one Redis server, SET NX PX for the grant and INCR for a monotonic token (runtime/clients/redis-client.ts). */
import type { LockSystem } from './lock-system.js';
import type { ServerSystem } from './server-system.js';

export const redis: LockSystem = { servers: ['redis'], connectsTo: 'redis', token: 'monotonic', evictable: true };

export const redisServer: ServerSystem = { layout: { count: 1, stem: 'redis', base: 10, ports: { client: 6379 } } };
