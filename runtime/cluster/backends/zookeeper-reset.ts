/**
 * ZooKeeper: the lock's znodes are ephemeral, so they are gone exactly when
 * the sessions that made them are; a client that ended its input closed its
 * session at once, one killed (kill -9, a crash) leaves it until it expires.
 * The reset waits, bounded by the longest session timeout the ensemble
 * grants, until the leader's `dump` shows no session left, and the check
 * asks it again and asks every member for its mode (all answer, one leader).
 */
import { tcpExchange } from '../probes.js';
import { DEFAULT_TICK_TIME_MS, zookeeperMode } from './zookeeper.js';
import type { NodePlan } from '../../../core/cluster/cluster-plan.js';
import { messageOf, type BackendReset } from '../../hosts/driver.js';

/** ZooKeeper's maxSessionTimeout default (20 ticks) and a tick of slack: no session can outlive it. */
export const ZK_SESSION_WAIT_MS = 21 * DEFAULT_TICK_TIME_MS;

export interface ZkDump {
  /** Live sessions (undefined: the dump does not say, as a follower's does not). */
  sessions: number | undefined;
  /** Sessions holding ephemeral znodes, and the znodes. */
  ephemeralSessions: number;
  ephemerals: string[];
}

/** The leader's `dump` four-letter word (pure): `Global Sessions(N)` or `Session Sets (k)/(N)`, then `Sessions with Ephemerals (N)` and the paths. */
export function parseZkDump(text: string): ZkDump {
  const sessions = /Global Sessions\((\d+)\)/.exec(text)?.[1] ?? /Session Sets \(\d+\)\/\((\d+)\)/.exec(text)?.[1];
  const eph = /Sessions with Ephemerals \((\d+)\)/.exec(text)?.[1];
  const from = text.indexOf('Sessions with Ephemerals');
  const to = text.indexOf('Connections dump');
  const after = from < 0 ? '' : text.slice(from, to > from ? to : undefined);
  const ephemerals =
    eph === undefined
      ? []
      : after
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l.startsWith('/'));
  return { sessions: sessions === undefined ? undefined : Number(sessions), ephemeralSessions: Number(eph ?? 0), ephemerals };
}

/** What a dump shows left of earlier runs (pure). */
export function zkDumpProblems(d: ZkDump): string[] {
  const out: string[] = [];
  if (d.ephemeralSessions > 0 || d.ephemerals.length > 0)
    out.push(`zookeeper: ${d.ephemeralSessions} sessions hold ${d.ephemerals.length} ephemeral znodes (${d.ephemerals.slice(0, 3).join(', ')})`);
  if ((d.sessions ?? 0) > 0) out.push(`zookeeper: ${d.sessions} sessions still open`);
  return out;
}

async function leaderOf(nodes: readonly NodePlan[]): Promise<{ leader: NodePlan | undefined; problems: string[] }> {
  const modes = await Promise.all(nodes.map((n) => zookeeperMode(n, 1000).catch((err: unknown) => new Error(messageOf(err)))));
  const problems = modes.flatMap((m, i) => (m instanceof Error ? [`${nodes[i]!.name}: not answering (${m.message})`] : []));
  const leaders = nodes.filter((_, i) => modes[i] === 'leader');
  if (leaders.length !== 1) problems.push(`zookeeper: ${leaders.length} leaders`);
  return { leader: leaders[0], problems };
}

async function dumpProblems(nodes: readonly NodePlan[]): Promise<string[]> {
  const { leader, problems } = await leaderOf(nodes);
  if (!leader) return problems;
  return [...problems, ...zkDumpProblems(parseZkDump(await tcpExchange(leader.ip, leader.port, 'dump', { timeoutMs: 1000 })))];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const zookeeperReset: BackendReset = {
  async reset({ nodes }) {
    const until = Date.now() + ZK_SESSION_WAIT_MS;
    // Waiting for the condition (no session left), not for a fixed time: usually none is.
    while ((await dumpProblems(nodes).catch(() => ['?'])).length > 0 && Date.now() < until) await sleep(100);
  },
  check: ({ nodes }) => dumpProblems(nodes),
};
