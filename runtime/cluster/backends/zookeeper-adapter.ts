/** zookeeper: a three-server ensemble (zookeeper.ts) and its reset. */
import type { BackendAdapter } from './backend-adapter.js';
import { zookeeperSpec } from './zookeeper.js';
import { zookeeperReset } from './zookeeper-reset.js';

export const zookeeperAdapter: BackendAdapter = { spec: (o) => zookeeperSpec(o.zookeeper), reset: zookeeperReset };
