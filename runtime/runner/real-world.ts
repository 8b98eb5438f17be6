/**
 * The interpreter's ports over a real cluster: lock client processes in the
 * client namespaces (each worker its own host), the cluster's nemesis, the
 * delay proxies, and the process's monotonic clock.
 */
import type { Cluster } from '../cluster/cluster.js';
import type { DelayProxy } from '../nemesis/delay-proxy-handle.js';
import type { ClientConfig } from '../../core/client-protocol.js';
import type { ClientLauncher } from './client-command.js';
import type { ClientFleet, NemesisPort } from './ports.js';
import { leaderBackendOf, sessionServerOf } from '../../core/systems/registry.js';
import { UnsupportedFaultError } from '../hosts/cluster-errors.js';

export interface RealFleetOptions {
  cluster: Cluster;
  /** Worker i's host is hosts[i % hosts.length]. */
  hosts: readonly string[];
  config: (worker: number, host: string) => ClientConfig;
  /** Starts the built-in client or the --client command and waits for its ready line (client-command.ts). */
  launcher: ClientLauncher;
  /** Where a client process logs (the run's own directory: a warm cluster's is an earlier run's). */
  logPath: (name: string) => string;
  /** The first ready line's library versions, as they arrive. */
  onVersions: (versions: Record<string, string>) => void;
  /**
   * On a warm cluster that serves another run after this one: the workers'
   * spare clients (runtime/hosts/spare-clients.ts), taken when a worker
   * starts and started for the next run during this one's recovery.
   */
  spares?: { backend: string; workers: number };
}

/** The real fleet, and how many of its clients were spares started during the previous run. */
export type RealFleet = ClientFleet & { readonly sparesTaken: number };

export function realFleet(o: RealFleetOptions): RealFleet {
  let spawned = 0;
  let sparesTaken = 0;
  const workersStarted = new Map<number, string>();
  return {
    get sparesTaken() {
      return sparesTaken;
    },
    async spawn(worker) {
      const hostName = o.hosts[worker % o.hosts.length]!;
      const host = o.cluster.clientHost(hostName);
      const procName = `client${worker + 1}-${++spawned}`;
      const n = o.cluster.nemesis;
      const spare = o.spares && o.launcher.spareArgv ? o.cluster.spares.take(hostName, worker) : undefined;
      if (spare) sparesTaken++;
      if (o.spares && worker < o.spares.workers) workersStarted.set(worker, hostName);
      const session = await o.launcher.start(
        host,
        procName,
        o.config(worker, hostName),
        o.logPath(procName),
        (proc) => ({ pause: () => n.pause(proc), resume: () => n.resume(proc), kill: () => n.kill(proc) }),
        spare,
      );
      o.onVersions((await session.ready).versions);
      return session;
    },
    prestartNext() {
      const argv = o.launcher.spareArgv;
      if (!o.spares || !argv) return;
      for (const [worker, hostName] of workersStarted) o.cluster.spares.prestart(o.cluster.clientHost(hostName), worker, argv, o.spares.backend, process.cwd());
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
    evict: (node, policy, onLockKeyEvicted) => n.evict(node, policy, onLockKeyEvicted),
    stopEvict: (node) => n.stopEvict(node),
    async endLockSessions() {
      const server = sessionServerOf(lockBackend);
      const node = server === undefined ? undefined : cluster.nodesOf(server)[0]?.name;
      if (node === undefined)
        throw new UnsupportedFaultError(
          `No session-end fault on ${lockBackend}: its lock is not a server session.`,
          'Run session-end on pg-advisory or pg-advisory-pooled.',
        );
      return { node, ...(await n.endLockSessions(node)) };
    },
    heal: () => n.heal(),
    healAll: () => n.healAll(),
    leader: async () => (leaderBackend ? cluster.leader(leaderBackend) : undefined),
    clientHosts: () => cluster.clientHosts().map((h) => h.name),
    delayLinks: (host) => proxies.get(host) ?? new Map(),
  };
}
