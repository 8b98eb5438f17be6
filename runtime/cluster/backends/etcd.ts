/**
 * etcd 3.4: three members started together with a static initial cluster.
 * Ready when `/health` on every member says healthy (a member is healthy only
 * when the cluster has a leader and it can serve a quorum read).
 *
 * A restarted member reuses its data dir: once its WAL exists etcd ignores
 * `--initial-cluster`, so the same command line rejoins the same cluster.
 * etcd is a Go program: Go reads the clock through the vDSO itself, so an
 * LD_PRELOAD clock offset has no effect on it (and etcd leases use the
 * monotonic clock anyway).
 */
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ServerSpec, SpecContext } from '../../hosts/driver.js';
import { nodesOf, type ClusterPlan, type NodePlan } from '../../../core/cluster/cluster-plan.js';
import { httpJson } from '../probes.js';
import type { LeaderProbe } from '../../hosts/driver.js';

const url = (ip: string, port: number | undefined): string => `http://${ip}:${port}`;

/** The etcd arguments for one member (pure). */
export function etcdArgs(node: NodePlan, plan: ClusterPlan, dataDir: string, token: string): string[] {
  const members = nodesOf(plan, 'etcd');
  return [
    '--name',
    node.name,
    '--data-dir',
    dataDir,
    '--listen-peer-urls',
    url(node.ip, node.ports['peer']),
    '--initial-advertise-peer-urls',
    url(node.ip, node.ports['peer']),
    '--listen-client-urls',
    url(node.ip, node.ports['client']),
    '--advertise-client-urls',
    url(node.ip, node.ports['client']),
    '--initial-cluster',
    members.map((m) => `${m.name}=${url(m.ip, m.ports['peer'])}`).join(','),
    '--initial-cluster-state',
    'new',
    '--initial-cluster-token',
    token,
    '--logger',
    'zap',
    '--log-outputs',
    'stderr',
  ];
}

export async function etcdHealth(node: NodePlan, timeoutMs = 1000): Promise<void> {
  const body = (await httpJson(`${url(node.ip, node.port)}/health`, { timeoutMs })) as { health?: string };
  if (body.health !== 'true') throw new Error(`etcd ${node.name} is not healthy: ${JSON.stringify(body)}`);
}

/** The member's own id and the leader it knows (the v3 JSON gateway; ids are decimal strings). */
export async function etcdStatus(node: NodePlan, timeoutMs = 1000): Promise<{ memberId: string; leader: string }> {
  const body = (await httpJson(`${url(node.ip, node.port)}/v3/maintenance/status`, { method: 'POST', body: '{}', timeoutMs })) as {
    header?: { member_id?: string };
    leader?: string;
  };
  return { memberId: body.header?.member_id ?? '', leader: body.leader ?? '' };
}

export function etcdSpec(): ServerSpec {
  return {
    backend: 'etcd',
    comm: 'etcd',
    tools: ['etcd'],
    debianPackage: 'etcd-server',
    scheme: 'http',
    shape: {},
    leader: etcdLeader,
    wallClockPreload: false,
    // A leader hands over leadership on SIGTERM, which can take an election timeout.
    stop: { signal: 'SIGTERM', graceMs: 5000 },
    // At teardown the data is never used again and every commit is already fsynced
    // in the WAL, so waiting long buys nothing: SIGTERM, then SIGKILL soon.
    teardown: { signal: 'SIGTERM', graceMs: 500 },
    async prepare(node: NodePlan, ctx: SpecContext) {
      await mkdir(ctx.dataDir(node), { recursive: true, mode: 0o700 });
    },
    command(node: NodePlan, ctx: SpecContext) {
      return { argv: [ctx.tools.etcd ?? 'etcd', ...etcdArgs(node, ctx.plan, ctx.dataDir(node), `fc-${basename(ctx.runDir)}`)] };
    },
    probe: (node: NodePlan) => etcdHealth(node),
    describe: () => 'etcd 3.4, 3 members',
  };
}

/** The member whose id the members' status names as leader. */
const etcdLeader: LeaderProbe = async (members) => {
  const statuses = await Promise.all(members.map((m) => etcdStatus(m, 500).catch(() => undefined)));
  const leaderId = statuses.find((s) => s && s.leader !== '' && s.leader !== '0')?.leader;
  return members.find((_, i) => statuses[i]?.memberId === leaderId)?.name;
};
