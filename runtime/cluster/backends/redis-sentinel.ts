/**
 * Replicated Redis with Sentinel: the configuration most production Redis
 * locks run on. Three data nodes (rs1 starts as the master, rs2 and rs3 as
 * its asynchronous replicas via --replicaof) and three Sentinels (quorum 2),
 * each in its own namespace. A Sentinel is `redis-server sentinel.conf
 * --sentinel` (the same program Debian's redis-sentinel package links), so
 * every process of the backend is a `redis-server`.
 *
 * Failover is tuned to be quick and still ordinary: a master is subjectively
 * down after 1 s without an answer, two Sentinels agreeing make it
 * objectively down, one of them is elected and promotes the replica with the
 * highest replication offset. Each Sentinel is told its peers and the replicas
 * in its config (`known-sentinel`, `known-replica`, fixed `myid`), so it does
 * not wait for hello messages or INFO refreshes (10 s) before it can act.
 *
 * Ready when each replica's link is up and its offset equals its master's, and
 * each Sentinel reports a master that is up, with two replicas and two other
 * Sentinels, and agrees with the others on which node it is.
 *
 * `min-replicas-to-write` / `min-replicas-max-lag` (options) are set on every
 * data node, since any of them may become the master.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerSpec, SpecContext } from '../../hosts/driver.js';
import { nodesOf, type ClusterPlan, type NodePlan } from '../../../core/cluster/cluster-plan.js';
import { redisArgs } from './redis.js';
import { agreedMaster, replicationOf, sentinelMasterAddr, sentinelMasterInfo, SENTINEL_MASTER_NAME } from '../../clients/sentinel-probes.js';
import type { LeaderProbe } from '../../hosts/driver.js';

export interface RedisSentinelOptions {
  /** `min-replicas-to-write` on every data node (0, the default, turns it off). */
  minReplicas?: number;
  /** `min-replicas-max-lag`, seconds (default 1 when minReplicas is set). */
  minReplicasMaxLagS?: number;
}

/** Sentinel timings: how fast a dead master is noticed and replaced. */
export const SENTINEL_TIMING = { quorum: 2, downAfterMs: 1000, failoverTimeoutMs: 3000 } as const;

/** A Sentinel's run id: fixed per node name, so peers can be listed in each config before any runs. */
export function sentinelId(node: NodePlan): string {
  return createHash('sha1').update(`fencecheck-sentinel-${node.name}`).digest('hex');
}

/** The first data node: the master the cluster starts with. */
export function initialMaster(plan: ClusterPlan): NodePlan {
  const first = nodesOf(plan, 'redis-sentinel').find((n) => n.role === 'data');
  if (!first) throw new RangeError('the plan has no redis-sentinel data node');
  return first;
}

/** redis-server arguments of a data node (pure). */
export function sentinelDataArgs(node: NodePlan, plan: ClusterPlan, dataDir: string, opts: RedisSentinelOptions = {}): string[] {
  const master = initialMaster(plan);
  const minReplicas = opts.minReplicas ?? 0;
  return [
    ...redisArgs(node, dataDir, 'none'),
    // Diskless full syncs start at once (the default waits 5 s for more replicas to join).
    '--repl-diskless-sync',
    'yes',
    '--repl-diskless-sync-delay',
    '0',
    ...(minReplicas > 0 ? ['--min-replicas-to-write', String(minReplicas), '--min-replicas-max-lag', String(opts.minReplicasMaxLagS ?? 1)] : []),
    ...(node.name === master.name ? [] : ['--replicaof', master.ip, String(master.port)]),
  ];
}

/** sentinel.conf of one Sentinel (pure). Sentinel rewrites it as it learns, so it lives in the node's data dir. */
export function sentinelConf(node: NodePlan, plan: ClusterPlan, dataDir: string): string {
  const master = initialMaster(plan);
  const peers = nodesOf(plan, 'redis-sentinel').filter((n) => n.role === 'sentinel' && n.name !== node.name);
  const replicas = nodesOf(plan, 'redis-sentinel').filter((n) => n.role === 'data' && n.name !== master.name);
  const m = SENTINEL_MASTER_NAME;
  return [
    `bind ${node.ip}`,
    `port ${node.port}`,
    'protected-mode no',
    'daemonize no',
    'logfile ""',
    `dir ${dataDir}`,
    `sentinel myid ${sentinelId(node)}`,
    `sentinel monitor ${m} ${master.ip} ${master.port} ${SENTINEL_TIMING.quorum}`,
    `sentinel down-after-milliseconds ${m} ${SENTINEL_TIMING.downAfterMs}`,
    `sentinel failover-timeout ${m} ${SENTINEL_TIMING.failoverTimeoutMs}`,
    `sentinel parallel-syncs ${m} 2`,
    ...replicas.map((r) => `sentinel known-replica ${m} ${r.ip} ${r.port}`),
    ...peers.map((p) => `sentinel known-sentinel ${m} ${p.ip} ${p.port} ${sentinelId(p)}`),
    '',
  ].join('\n');
}

const confPath = (dataDir: string): string => join(dataDir, 'sentinel.conf');

/** A data node is ready when it answers; a replica only once its link is up and it has caught up with its master. */
async function dataReady(node: NodePlan): Promise<void> {
  const me = await replicationOf(node.ip, node.port);
  if (me.role === 'master') return;
  if (!me.linkUp || !me.masterHost) throw new Error(`replica ${node.name}: link to its master is down`);
  const master = await replicationOf(me.masterHost, node.port);
  if (me.offset < master.offset) throw new Error(`replica ${node.name}: offset ${me.offset} behind its master's ${master.offset}`);
}

/** A Sentinel is ready when it sees an up master with every replica and peer, and the Sentinels agree on the master. */
async function sentinelReady(node: NodePlan, plan: ClusterPlan): Promise<void> {
  const group = nodesOf(plan, 'redis-sentinel');
  const sentinels = group.filter((n) => n.role === 'sentinel');
  const info = await sentinelMasterInfo(node.ip, node.port);
  const want = { flags: 'master', 'num-slaves': String(group.length - sentinels.length - 1), 'num-other-sentinels': String(sentinels.length - 1) };
  for (const [k, v] of Object.entries(want)) if (info[k] !== v) throw new Error(`sentinel ${node.name}: ${k} is ${info[k] ?? 'missing'}, want ${v}`);
  const mine = await sentinelMasterAddr(node.ip, node.port);
  const agreed = await agreedMaster(sentinels.map((s) => ({ host: s.ip, port: s.port })));
  if (agreed !== mine) throw new Error(`sentinel ${node.name} says the master is ${mine}, the Sentinels agree on ${agreed ?? 'nothing'}`);
}

export function redisSentinelSpec(opts: RedisSentinelOptions = {}): ServerSpec {
  let plan: ClusterPlan | undefined;
  const planOf = (): ClusterPlan => {
    if (!plan) throw new Error('redis-sentinel: probe before prepare');
    return plan;
  };
  return {
    backend: 'redis-sentinel',
    comm: 'redis-server',
    // Sentinels run as `redis-server --sentinel` (the program Debian's redis-sentinel links to).
    tools: ['redis-server'],
    debianPackage: 'redis-server',
    scheme: 'redis',
    shape: { 'redis-sentinel min-replicas-to-write': String(opts.minReplicas ?? 0) },
    leader: sentinelLeader,
    wallClockPreload: true,
    // Clients ask the Sentinels for the master, as applications do (redis-py's Sentinel.master_for).
    clientRole: 'sentinel',
    stop: { signal: 'SIGTERM', graceMs: 3000 },
    // Nothing is persisted: SIGKILL at once.
    teardown: { signal: 'SIGKILL', graceMs: 0 },
    async prepare(node: NodePlan, ctx: SpecContext) {
      plan = ctx.plan;
      const dir = ctx.dataDir(node);
      await mkdir(dir, { recursive: true });
      if (node.role === 'sentinel') await writeFile(confPath(dir), sentinelConf(node, ctx.plan, dir));
    },
    command(node: NodePlan, ctx: SpecContext) {
      const server = ctx.tools['redis-server'] ?? 'redis-server';
      const dir = ctx.dataDir(node);
      return { argv: node.role === 'sentinel' ? [server, confPath(dir), '--sentinel'] : [server, ...sentinelDataArgs(node, ctx.plan, dir, opts)] };
    },
    probe: (node: NodePlan) => (node.role === 'sentinel' ? sentinelReady(node, planOf()) : dataReady(node)),
    describe: () =>
      `master ${SENTINEL_MASTER_NAME}, quorum ${SENTINEL_TIMING.quorum}, down-after ${SENTINEL_TIMING.downAfterMs} ms` +
      ((opts.minReplicas ?? 0) > 0 ? `, min-replicas-to-write ${opts.minReplicas} max-lag ${opts.minReplicasMaxLagS ?? 1} s` : ''),
  };
}

/** The master a majority of the Sentinels name (get-master-addr-by-name). */
const sentinelLeader: LeaderProbe = async (members) => {
  const sentinels = members.filter((m) => m.role === 'sentinel').map((m) => ({ host: m.ip, port: m.port }));
  const addr = await agreedMaster(sentinels);
  return members.find((m) => m.role === 'data' && `${m.ip}:${m.port}` === addr)?.name;
};
