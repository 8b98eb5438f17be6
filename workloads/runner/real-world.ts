/**
 * The interpreter's ports over a real cluster: lock client processes in the
 * client namespaces (each worker its own host), the cluster's nemesis, the
 * delay proxies, and the process's monotonic clock.
 */
import type { Cluster } from '../../src/cluster/cluster.js';
import { compiledEntry } from '../../src/cluster/paths.js';
import { FencecheckError } from '../../src/errors.js';
import type { DelayProxy } from '../../src/nemesis/delay-proxy-handle.js';
import type { ClientConfig } from '../clients/protocol.js';
import { ClientSession } from './client-session.js';
import { raceTimer, realClock } from './clock.js';
import type { ClientFleet, NemesisPort } from './ports.js';
import { leaderBackendOf } from './sentinel-run.js';

/** How long a fresh client process may take to connect and print its ready line. */
const READY_TIMEOUT_MS = 30_000;

export interface RealFleetOptions {
  cluster: Cluster;
  /** Worker i's host is hosts[i % hosts.length]. */
  hosts: readonly string[];
  config: (worker: number, host: string) => ClientConfig;
  /** The first ready line's library versions, as they arrive. */
  onVersions: (versions: Record<string, string>) => void;
}

export function realFleet(o: RealFleetOptions): ClientFleet {
  const clientMain = compiledEntry('../workloads/clients/client-main.js');
  let spawned = 0;
  return {
    async spawn(worker) {
      const hostName = o.hosts[worker % o.hosts.length]!;
      const host = o.cluster.clientHost(hostName);
      const procName = `client${worker + 1}-${++spawned}`;
      const proc = host.spawn([process.execPath, clientMain], { name: procName, env: { FC_CLIENT_CONFIG: JSON.stringify(o.config(worker, hostName)) } });
      const n = o.cluster.nemesis;
      const session = new ClientSession(proc, o.cluster.logPath(procName), { pause: () => n.pause(proc), resume: () => n.resume(proc), kill: () => n.kill(proc) });
      const ready = await raceTimer(realClock, session.ready, READY_TIMEOUT_MS, () => undefined);
      if (!ready) {
        await n.kill(proc).catch(() => undefined);
        throw new FencecheckError('client-not-ready', `lock client ${procName} was not ready within ${READY_TIMEOUT_MS / 1000} s`, { hint: `See its log: ${o.cluster.logPath(procName)}` });
      }
      o.onVersions(ready.versions);
      return session;
    },
  };
}

export function realNemesis(cluster: Cluster, lockBackend: string, proxies: ReadonlyMap<string, ReadonlyMap<string, DelayProxy>>): NemesisPort {
  const n = cluster.nemesis;
  const leaderBackend = leaderBackendOf(lockBackend);
  return {
    pause: (node) => n.pause(node),
    resume: (node) => n.resume(node),
    kill: (node) => n.kill(node),
    restart: (node) => n.restart(node),
    clockOffset: (node, ms) => n.clockOffset(node, ms),
    loss: (node, others, percent) => n.loss(node, others, percent),
    partition: (grudge) => n.partition(grudge),
    heal: () => n.heal(),
    healAll: () => n.healAll(),
    leader: async () => (leaderBackend ? cluster.leader(leaderBackend) : undefined),
    clientHosts: () => cluster.clientHosts().map((h) => h.name),
    delayLinks: (host) => proxies.get(host) ?? new Map(),
  };
}
