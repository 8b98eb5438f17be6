/**
 * Questions to a replicated Redis and its Sentinels, each on its own short
 * connection with hard timeouts (ioredis parses the replies; nothing is
 * retried or queued): a node's replication state (INFO replication), and what
 * a Sentinel believes (SENTINEL get-master-addr-by-name, SENTINEL master).
 * Used for readiness, for `Cluster.leader('redis-sentinel')` (the nemesis's
 * "master" target) and by the tests.
 */
import { Redis } from 'ioredis';

/** The name the Sentinels monitor the master under (what a client asks for). */
export const SENTINEL_MASTER_NAME = 'fencecheck';

/** One command on a fresh connection; rejects on refusal, error reply or after `timeoutMs`. */
export async function askRedis<T>(host: string, port: number, ask: (r: Redis) => Promise<T>, timeoutMs = 500): Promise<T> {
  const r = new Redis({
    host,
    port,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    enableReadyCheck: false,
  });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return await ask(r);
  } finally {
    r.disconnect();
  }
}

/** `field:value` lines of an INFO section as a map. */
export function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\r\n').flatMap((l) => l.split('\n'))) {
    const i = line.indexOf(':');
    if (i > 0 && !line.startsWith('#')) out[line.slice(0, i)] = line.slice(i + 1).trim();
  }
  return out;
}

export interface ReplicationState {
  role: 'master' | 'slave';
  /** Replicas: the master they follow and whether the link is up. */
  masterHost?: string;
  linkUp?: boolean;
  /** The replication offset this node has reached (master_repl_offset on a master, slave_repl_offset on a replica). */
  offset: number;
  /** Masters: replicas connected. */
  connectedReplicas?: number;
}

export function replicationState(info: Record<string, string>): ReplicationState {
  const role = info['role'] === 'slave' ? 'slave' : 'master';
  if (role === 'master') return { role, offset: Number(info['master_repl_offset'] ?? 0), connectedReplicas: Number(info['connected_slaves'] ?? 0) };
  return {
    role,
    ...(info['master_host'] ? { masterHost: info['master_host'] } : {}),
    linkUp: info['master_link_status'] === 'up',
    offset: Number(info['slave_repl_offset'] ?? 0),
  };
}

export async function replicationOf(host: string, port: number, timeoutMs = 500): Promise<ReplicationState> {
  return replicationState(parseInfo(await askRedis(host, port, (r) => r.info('replication'), timeoutMs)));
}

/** The master's address as one Sentinel answers it (`ip:port`). */
export async function sentinelMasterAddr(host: string, port: number, timeoutMs = 500): Promise<string> {
  const reply = (await askRedis(host, port, (r) => r.call('SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER_NAME), timeoutMs)) as [string, string] | null;
  if (!Array.isArray(reply)) throw new Error(`sentinel ${host}:${port} knows no master called ${SENTINEL_MASTER_NAME}`);
  return `${reply[0]}:${reply[1]}`;
}

/** `SENTINEL master <name>`: its flat field/value list as a map (flags, num-slaves, num-other-sentinels, …). */
export async function sentinelMasterInfo(host: string, port: number, timeoutMs = 500): Promise<Record<string, string>> {
  const reply = (await askRedis(host, port, (r) => r.call('SENTINEL', 'master', SENTINEL_MASTER_NAME), timeoutMs)) as string[];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) out[reply[i]!] = reply[i + 1]!;
  return out;
}

/**
 * The master the Sentinels agree on: the address a majority of those that
 * answer give, or undefined (none answer, or no majority: mid-failover).
 */
export async function agreedMaster(sentinels: readonly { host: string; port: number }[], timeoutMs = 500): Promise<string | undefined> {
  const answers = await Promise.all(sentinels.map((s) => sentinelMasterAddr(s.host, s.port, timeoutMs).catch(() => undefined)));
  const votes = new Map<string, number>();
  for (const a of answers) if (a !== undefined) votes.set(a, (votes.get(a) ?? 0) + 1);
  const [best] = [...votes].sort((a, b) => b[1] - a[1]);
  return best && best[1] > sentinels.length / 2 ? best[0] : undefined;
}
