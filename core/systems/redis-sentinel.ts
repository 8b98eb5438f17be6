/**
 * redis-sentinel: a Redis master and two replicas watched by three Sentinels;
 * clients follow the master the Sentinels name. Its own options: WAIT after
 * each grant (--wait-replicas) and min-replicas-to-write (--min-replicas).
 */
import type { LockSystem } from './lock-system.js';
import type { ServerSystem } from './server-system.js';

export const redisSentinel = {
  servers: ['redis-sentinel'],
  connectsTo: 'redis-sentinel',
  token: 'monotonic',
  leader: 'redis-sentinel',
  replicatedMaster: true,
  faultsNotApplicable: (nemesis, scripted) =>
    nemesis.includes('delay') && scripted
      ? 'redis-sentinel clients connect to whichever master the Sentinels name, so a delay proxy cannot sit on their link to the lock service'
      : undefined,
  options: ['waitReplicas', 'minReplicas'],
  clusterOptions: (o) => ((o.minReplicas ?? 0) > 0 ? { redisSentinel: { minReplicas: o.minReplicas!, minReplicasMaxLagS: 1 } } : {}),
  clientOptions: (o) => ((o.waitReplicas ?? 0) > 0 ? { waitReplicas: o.waitReplicas! } : {}),
} satisfies LockSystem;

/** A master and two replicas (rs1 starts as the master), and three Sentinels watching them. */
export const redisSentinelServer: ServerSystem = {
  layout: { count: 3, stem: 'rs', base: 60, ports: { client: 6379 }, sentinels: { count: 3, stem: 'sentinel', base: 65, ports: { client: 26379 } } },
};
