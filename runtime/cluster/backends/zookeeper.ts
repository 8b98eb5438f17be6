/**
 * ZooKeeper 3.8 from the Debian jars: three quorum members run directly with
 * `java … QuorumPeerMain zoo.cfg`, plus slf4j-simple as the SLF4J binding
 * (without a binding ZooKeeper logs nothing at all). Ready when `srvr` on
 * every member reports `Mode: leader` or `Mode: follower`.
 *
 * tickTime defaults to 500 ms (ZooKeeper's own default is 2000): followers
 * give up on a silent leader after syncLimit ticks, so a paused leader is
 * replaced in about 3 s instead of 10. Every member's config always lists the
 * full ensemble: a member restarted with only itself would come up standalone
 * with diverged data. ZooKeeper sessions use System.nanoTime (monotonic), so a
 * wall-clock offset does not expire them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerSpec, SpecContext } from '../../hosts/driver.js';
import { nodesOf, type ClusterPlan, type NodePlan } from '../../../core/cluster/cluster-plan.js';
import { tcpExchange } from '../probes.js';
import type { LeaderProbe } from '../../hosts/driver.js';

export interface ZookeeperOptions {
  tickTimeMs?: number;
}

export const DEFAULT_TICK_TIME_MS = 500;

/** zoo.cfg for one member (pure). */
export function zooCfg(node: NodePlan, plan: ClusterPlan, dataDir: string, tickTimeMs: number): string {
  const servers = nodesOf(plan, 'zookeeper').map((m) => `server.${m.index}=${m.ip}:${m.ports['quorum']}:${m.ports['election']}`);
  return [
    `tickTime=${tickTimeMs}`,
    'initLimit=10',
    'syncLimit=5',
    `dataDir=${dataDir}`,
    `clientPort=${node.port}`,
    `clientPortAddress=${node.ip}`,
    ...servers,
    '4lw.commands.whitelist=*',
    'admin.enableServer=false',
    // Never fall back to standalone, never reconfigure: the ensemble is fixed.
    'standaloneEnabled=false',
    'reconfigEnabled=false',
    'maxClientCnxns=0',
    '',
  ].join('\n');
}

/** The java command line (pure). The JVM flags trade peak speed for a fast start and a small heap. */
export function zookeeperArgv(java: string, jars: { zookeeper: string; slf4jSimple: string }, cfgPath: string): string[] {
  return [
    java,
    '-Xms32m',
    '-Xmx256m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    // No hsperfdata files in /tmp.
    '-XX:-UsePerfData',
    '-Djava.net.preferIPv4Stack=true',
    // Election notifications back off up to 60 s by default; members that start a
    // little apart would then wait long for each other.
    '-Dzookeeper.fastleader.maxNotificationInterval=1000',
    '-Dorg.slf4j.simpleLogger.showDateTime=true',
    '-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd HH:mm:ss.SSS',
    '-cp',
    `${jars.zookeeper}:${jars.slf4jSimple}`,
    'org.apache.zookeeper.server.quorum.QuorumPeerMain',
    cfgPath,
  ];
}

export type ZookeeperMode = 'leader' | 'follower' | 'standalone' | 'observer';

/** The member's role as `srvr` reports it. */
export async function zookeeperMode(node: NodePlan, timeoutMs = 1000): Promise<ZookeeperMode> {
  const answer = await tcpExchange(node.ip, node.port, 'srvr', { timeoutMs });
  const mode = /^Mode: (\w+)/m.exec(answer)?.[1];
  if (mode === 'leader' || mode === 'follower' || mode === 'standalone' || mode === 'observer') return mode;
  throw new Error(`zookeeper ${node.name} is not serving: ${JSON.stringify(answer.trim().slice(0, 200))}`);
}

export function zookeeperSpec(opts: ZookeeperOptions = {}): ServerSpec {
  const tickTimeMs = opts.tickTimeMs ?? DEFAULT_TICK_TIME_MS;
  const cfgPath = (node: NodePlan, ctx: SpecContext): string => join(ctx.dataDir(node), 'zoo.cfg');
  return {
    backend: 'zookeeper',
    comm: 'java',
    tools: ['java', 'zookeeper.jar', 'slf4j-simple.jar'],
    debianPackage: 'zookeeper',
    scheme: 'zk',
    shape: { 'zookeeper tickTime': `${tickTimeMs} ms` },
    leader: zookeeperLeader,
    wallClockPreload: true,
    stop: { signal: 'SIGTERM', graceMs: 5000 },
    // The transaction log is fsynced before each ack and the data is not used again.
    teardown: { signal: 'SIGTERM', graceMs: 500 },
    async prepare(node: NodePlan, ctx: SpecContext) {
      const dir = ctx.dataDir(node);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'myid'), `${node.index}\n`);
      await writeFile(cfgPath(node, ctx), zooCfg(node, ctx.plan, dir, tickTimeMs));
    },
    command(node: NodePlan, ctx: SpecContext) {
      const jars = { zookeeper: ctx.tools['zookeeper.jar'] ?? '', slf4jSimple: ctx.tools['slf4j-simple.jar'] ?? '' };
      return { argv: zookeeperArgv(ctx.tools.java ?? 'java', jars, cfgPath(node, ctx)) };
    },
    async probe(node: NodePlan) {
      const mode = await zookeeperMode(node);
      if (mode !== 'leader' && mode !== 'follower') throw new Error(`zookeeper ${node.name} is ${mode}`);
    },
    describe: () => `tickTime ${tickTimeMs} ms`,
  };
}

/** The server whose srvr says `Mode: leader`. */
const zookeeperLeader: LeaderProbe = async (members) => {
  const modes = await Promise.all(members.map((m) => zookeeperMode(m, 500).catch(() => undefined)));
  return members.find((_, i) => modes[i] === 'leader')?.name;
};
