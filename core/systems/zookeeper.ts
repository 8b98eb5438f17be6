/** zookeeper: a three-server ensemble, ephemeral sequential znodes; the sequence number is a monotonic token. */
import type { LockSystem } from './lock-system.js';

export const zookeeper: LockSystem = {
  servers: ['zookeeper'],
  connectsTo: 'zookeeper',
  token: 'monotonic',
  leader: 'zookeeper',
  lockName: (base) => `/${base}`,
};
