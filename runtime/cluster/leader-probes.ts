/**
 * How each backend with a leader (core/systems: LockSystem.leader) names its
 * current leader or master, asked of the real servers: one entry per backend,
 * so Cluster.leader has no per-backend branch.
 */
import type { NodePlan } from '../../core/cluster/cluster-plan.js';
import type { LeaderBackend } from '../../core/systems/lock-system.js';
import { agreedMaster } from '../clients/sentinel-probes.js';
import { etcdStatus } from './backends/etcd.js';
import { zookeeperMode } from './backends/zookeeper.js';

/** A backend's leader probe: its nodes in, the leader's node name out (undefined: none agreed or none answered). */
export type LeaderProbe = (members: readonly NodePlan[]) => Promise<string | undefined>;

export const LEADER_PROBES: Record<LeaderBackend, LeaderProbe> = {
  // The master a majority of the Sentinels name (get-master-addr-by-name).
  'redis-sentinel': async (members) => {
    const sentinels = members.filter((m) => m.role === 'sentinel').map((m) => ({ host: m.ip, port: m.port }));
    const addr = await agreedMaster(sentinels);
    return members.find((m) => m.role === 'data' && `${m.ip}:${m.port}` === addr)?.name;
  },
  // The server whose srvr says `Mode: leader`.
  zookeeper: async (members) => {
    const modes = await Promise.all(members.map((m) => zookeeperMode(m, 500).catch(() => undefined)));
    return members.find((_, i) => modes[i] === 'leader')?.name;
  },
  // The member whose id the members' status names as leader.
  etcd: async (members) => {
    const statuses = await Promise.all(members.map((m) => etcdStatus(m, 500).catch(() => undefined)));
    const leaderId = statuses.find((s) => s && s.leader !== '' && s.leader !== '0')?.leader;
    return members.find((_, i) => statuses[i]?.memberId === leaderId)?.name;
  },
};
