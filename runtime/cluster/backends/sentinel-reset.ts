/**
 * Redis with Sentinel: the keys flushed on the master (replication carries
 * the flush to the replicas) and the reset waits, bounded, until every
 * replica has caught up; the check wants the planned master named by every
 * Sentinel, its replicas linked and at its offset, every data node empty and
 * every Sentinel seeing the whole group.
 *
 * A master that moved (a failover, a killed master) is not moved back here:
 * that needs a steered failover (replica priorities, SENTINEL FAILOVER, the
 * old master reconverted), a longer and riskier reset than a fresh start, so
 * the check fails and the pool starts the cluster fresh.
 */
import { initialMaster } from './redis-sentinel.js';
import { agreedMaster, askRedis, replicationOf, sentinelMasterInfo } from '../../clients/sentinel-probes.js';
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { messageOf, type BackendReset, type ResetContext } from '../../hosts/driver.js';
import { redisKeysProblem } from './redis-reset.js';

const CATCH_UP_MS = 5000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Replication as planned (pure over what the nodes answered): the master, linked replicas at its offset. */
export function replicationProblems(
  master: NodePlan,
  agreed: string | undefined,
  states: readonly { node: NodePlan; state: Awaited<ReturnType<typeof replicationOf>> | Error }[],
): string[] {
  const problems: string[] = [];
  if (agreed !== `${master.ip}:${master.port}`)
    problems.push(`the Sentinels name ${agreed ?? 'no master'} as master, planned ${master.name} (${master.ip}:${master.port})`);
  const m = states.find((s) => s.node.name === master.name)?.state;
  for (const { node, state } of states) {
    if (state instanceof Error) problems.push(`${node.name}: not answering (${state.message})`);
    else if (node.name === master.name && state.role !== 'master') problems.push(`${node.name}: is a replica, planned master`);
    else if (node.name !== master.name && (state.role !== 'slave' || state.masterHost !== master.ip || !state.linkUp))
      problems.push(`${node.name}: not a linked replica of ${master.name}`);
    else if (node.name !== master.name && m && !(m instanceof Error) && state.offset < m.offset)
      problems.push(`${node.name}: offset ${state.offset} behind the master's ${m.offset}`);
  }
  return problems;
}

async function roleProblems({ plan, nodes }: ResetContext): Promise<string[]> {
  const master = initialMaster(plan);
  const data = nodes.filter((n) => n.role === 'data');
  const sentinels = nodes.filter((n) => n.role === 'sentinel');
  const agreed = await agreedMaster(sentinels.map((s) => ({ host: s.ip, port: s.port })));
  const states = await Promise.all(
    data.map(async (node) => ({ node, state: await replicationOf(node.ip, node.port).catch((err: unknown) => new Error(messageOf(err))) })),
  );
  const problems = replicationProblems(master, agreed, states);
  const want = { flags: 'master', 'num-slaves': String(data.length - 1), 'num-other-sentinels': String(sentinels.length - 1) };
  for (const s of sentinels) {
    const info = await sentinelMasterInfo(s.ip, s.port).catch((err: unknown) => new Error(messageOf(err)));
    if (info instanceof Error) problems.push(`${s.name}: not answering (${info.message})`);
    else for (const [k, v] of Object.entries(want)) if (info[k] !== v) problems.push(`${s.name}: ${k} is ${info[k] ?? 'missing'}, want ${v}`);
  }
  return problems;
}

async function keyProblems(nodes: readonly NodePlan[]): Promise<string[]> {
  return (await Promise.all(nodes.filter((n) => n.role === 'data').map(redisKeysProblem))).filter((p): p is string => p !== undefined);
}

export const sentinelReset: BackendReset = {
  async reset(ctx) {
    const master = initialMaster(ctx.plan);
    // Flushed only on a master that is still the planned one: a moved master fails the check (no wait for it).
    if ((await replicationOf(master.ip, master.port).catch(() => undefined))?.role !== 'master') return;
    await askRedis(master.ip, master.port, (r) => r.flushall(), 2000);
    const until = Date.now() + CATCH_UP_MS;
    while ((await roleProblems(ctx)).length + (await keyProblems(ctx.nodes)).length > 0 && Date.now() < until) await sleep(100);
  },
  async check(ctx) {
    return [...(await roleProblems(ctx)), ...(await keyProblems(ctx.nodes))];
  },
};
