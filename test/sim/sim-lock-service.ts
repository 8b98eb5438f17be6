/**
 * The simulated lock service of a run, by backend: its servers on their
 * nodes, the transports a client process reaches them through (its
 * ClientRuntime's ports), the truth's grants as the servers make them, and
 * the faults that act on the service's data (memory pressure). One Redis
 * (redis), five independent Redis (redlock), an etcd cluster (etcd), a
 * ZooKeeper ensemble (zookeeper), as the real clusters.
 * (redis-sentinel, redlock-npm, pg-advisory and memcached are not simulated.)
 */
import type { ClientRuntime } from '../../runtime/clients/client-runtime.js';
import type { LockBackend } from '../../core/vocabulary.js';
import { quorumOf } from '../../runtime/clients/redlock-algorithm.js';
import type { SimNetwork } from './sim-network.js';
import type { SimNode } from './sim-node.js';
import type { SimProcess } from './sim-process.js';
import { SimEtcdCluster, SimEtcdPort } from './sim-etcd.js';
import { SimZkAddon, SimZkEnsemble } from './sim-zookeeper.js';
import { SimRedisPort, SimRedisServer, type RedisHook } from './sim-redis.js';
import type { SimTruth } from './sim-truth.js';

/** The backends whose servers and transports are simulated. */
export const SIMULATED_BACKENDS = ['redis', 'redlock', 'etcd', 'zookeeper', 'none'] as const satisfies readonly LockBackend[];
export type SimulatedBackend = (typeof SIMULATED_BACKENDS)[number];

export interface SimLockService {
  /** A client process's transports to the service. */
  transports(proc: SimProcess, host: string, client: string): Partial<ClientRuntime>;
  /** Memory pressure on a node (evict); the keys evicted. */
  setPressure(node: string, on: boolean): string[];
}

export function simLockService(
  backend: LockBackend,
  nodes: SimNode[],
  net: SimNetwork,
  truth: SimTruth,
  lockName: string,
  observe?: RedisHook,
): SimLockService {
  switch (backend) {
    case 'redis':
    case 'redlock':
      return redisService(backend, nodes, net, truth, lockName, observe);
    case 'etcd': {
      const cluster = new SimEtcdCluster(nodes, net, truth, lockName);
      return {
        transports: (proc, host, client) => ({ etcd: (o) => new SimEtcdPort(net, host, proc, cluster, client, o.callTimeoutMs) }),
        setPressure: () => [],
      };
    }
    case 'zookeeper': {
      const ensemble = new SimZkEnsemble(nodes, net, truth, lockName);
      return {
        transports: (proc, host, client) => ({ zookeeper: (o) => new SimZkAddon(net, host, proc, ensemble, client, o) }),
        setPressure: () => [],
      };
    }
    case 'none':
      // No lock service: every client goes straight to the resource (NoLockClient).
      return { transports: () => ({}), setPressure: () => [] };
    default:
      throw new Error(`the simulation has no ${backend} servers (simulated: ${SIMULATED_BACKENDS.join(', ')})`);
  }
}

function redisService(backend: 'redis' | 'redlock', nodes: SimNode[], net: SimNetwork, truth: SimTruth, lockName: string, observe?: RedisHook): SimLockService {
  const servers = new Map<string, SimRedisServer>();
  const hook: RedisHook = (node, command, key, value, client) => {
    truthOf(node, command, key, value, client);
    observe?.(node, command, key, value, client);
  };
  const truthOf: RedisHook = (node, command, key, value, client) => {
    const now = node.simMs;
    if (backend === 'redis') {
      // The single Redis's grant is its SET NX; the token is taken by the holder's INCR, a round trip later.
      if (key === lockName && command === 'set') truth.grant(client, now);
      if (key === `${lockName}:fence` && command === 'incr') truth.tokenTaken(client, Number(value));
      if (key === lockName && command === 'del') truth.released(client, now);
      return;
    }
    if (key !== lockName) return;
    // Redlock's lock passes when a value is held by a majority of the nodes (each by its own clock).
    const holding = [...servers.values()].filter((s) => s.valueOf(lockName) === value).length;
    if (command === 'set' && holding >= quorumOf(nodes.length)) {
      const last = truth.grants.at(-1);
      // A retry of the same value after the algorithm's own unlock (validity ran out) takes the lock back: if nobody
      // got it in between, that is the same hold going on; else it is a new grant.
      if (last?.token === value) delete last.releasedAtMs;
      else truth.grant(client, now, value);
    }
    if (command === 'del' && holding < quorumOf(nodes.length) && truth.grantOf(client)?.token === value) truth.released(client, now);
  };
  for (const n of nodes) servers.set(n.name, new SimRedisServer(n, hook));
  return {
    transports: (proc, host, client) => ({
      redis: (endpoint, timeoutMs) => new SimRedisPort(net, host, proc, servers.get(endpoint.split(':')[0]!)!, client, timeoutMs),
    }),
    setPressure: (node, on) => servers.get(node)?.setPressure(on) ?? [],
  };
}
