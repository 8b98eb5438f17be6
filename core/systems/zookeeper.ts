/** zookeeper: a three-server ensemble, ephemeral sequential znodes; the sequence number is a monotonic token. */
import type { LockSystem } from './lock-system.js';
import type { ServerSystem } from './server-system.js';

export const zookeeper = {
  servers: ['zookeeper'],
  connectsTo: 'zookeeper',
  token: 'monotonic',
  leader: 'zookeeper',
  // The client pings every third of the session timeout.
  renewalShare: 1 / 3,
  lockName: (base) => `/${base}`,
} satisfies LockSystem;

export const zookeeperServer: ServerSystem = { layout: { count: 3, stem: 'zk', base: 40, ports: { client: 2181, quorum: 2888, election: 3888 } } };
