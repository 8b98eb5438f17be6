/**
 * A running cluster: its plan, its server nodes (driver handles), its client
 * hosts, its nemesis, and its teardown. Made by `startCluster`.
 */
import { join } from 'node:path';
import { SpareClients } from '../hosts/spare-clients.js';
import { Nemesis } from '../nemesis/nemesis.js';
import type { ClientHost, ClientRuntime } from '../hosts/client-host.js';
import type { ProviderName } from '../../core/plan/providers.js';
import { postgresUrl } from './backends/postgres.js';
import { allHosts, planClientHost, type BackendName, type ClusterPlan, type HostPlan, type NodeRole } from '../../core/cluster/cluster-plan.js';
import { reclaim, type ReclaimReport } from './reclaim.js';
import type { ServerHandle } from '../hosts/driver.js';
import type { ClusterState, StateFile } from '../hosts/state-file.js';
import type { ClusterLock } from './cluster-lock.js';
import type { TeardownHooks } from './teardown-hooks.js';
import { within } from '../hosts/within.js';
import type { LeaderBackend } from '../../core/systems/registry.js';
import { backendSpec, pressureOfBackend } from './backends/registry.js';

const schemeOf = (b: BackendName): string => backendSpec(b).scheme;

/** Where a client reaches one server. */
export interface Endpoint {
  backend: BackendName;
  node: string;
  host: string;
  port: number;
  namespace: string;
  /** e.g. `redis://10.77.0.11:6379`, `http://10.77.0.31:2379`, `postgres://postgres@10.77.0.51:5432/postgres` */
  url: string;
  /** `sentinel` for a Redis Sentinel; `data` for every other node. */
  role: NodeRole;
}

export interface ClusterParts {
  plan: ClusterPlan;
  runDir: string;
  state: StateFile;
  nodes: ServerHandle[];
  clientRuntime: ClientRuntime;
  /** The provider's hosts, firewall and teardown (namespaces-provider.ts, containers/start-container-cluster.ts). */
  provider: ProviderHooks;
  nft: string | undefined;
  hooks: TeardownHooks | undefined;
  /** The machine-wide cluster lock, released after teardown. */
  lock: ClusterLock;
  /** Progress lines (teardown's beginning and end: the moments a person, or the chaos tests, may interrupt). */
  log?: (line: string) => void;
}

/** What the cluster does through its provider: its hosts (namespaces, or host containers), their firewalls, its own teardown. */
export interface ProviderHooks {
  name: ProviderName;
  /** What its teardown removes, for the teardown's first line. */
  removes: string;
  /** The ClientHost of a planned client host (its host container exists). */
  clientHost(plan: HostPlan): ClientHost;
  /** Create a client host after start (addClientHost). */
  addHost(plan: HostPlan): Promise<void>;
  /** `nft -f -` with `script` on the host whose namespace name is `namespace` (the nemesis's firewall gives no time limit). */
  nftExec(namespace: string, script: string, o?: { timeoutMs?: number }): Promise<void>;
  /** `nft list tables` on that host (a warm cluster's reset looks for tables a fault left). */
  nftList(namespace: string): Promise<string>;
  /** Remove what the reclaim cannot (containers: data its servers wrote as their own users); then the state file is reclaimed as usual. */
  teardown(opts: { keepData?: boolean }): Promise<void>;
}

export class Cluster {
  readonly plan: ClusterPlan;
  readonly runDir: string;
  readonly nodes: readonly ServerHandle[];
  readonly nemesis: Nemesis;
  /** The next run's client processes, started early on a warm cluster (runtime/hosts/spare-clients.ts); teardown reclaims them with every process. */
  readonly spares = new SpareClients();
  private readonly clients = new Map<string, ClientHost>();
  private tornDown: Promise<ReclaimReport> | undefined;
  private starting: { work: Promise<unknown>; abort: () => void } | undefined;

  constructor(private readonly parts: ClusterParts) {
    this.plan = parts.plan;
    this.runDir = parts.runDir;
    this.nodes = parts.nodes;
    for (const h of parts.plan.clients) this.clients.set(h.name, this.makeClientHost(h));
    this.nemesis = new Nemesis({
      state: parts.state,
      nft: parts.nft,
      clockLibrary: parts.clientRuntime.clockLibrary,
      host: (n) => allHosts(this.plan).find((h) => h.name === n),
      node: (n) => this.nodes.find((s) => s.name === n),
      client: (n) => this.clients.get(n),
      hostNames: () => allHosts(this.plan).map((h) => h.name),
      nftExec: parts.provider.nftExec,
      pressure: pressureOfBackend,
    });
  }

  /** The provider its hosts run on. */
  get provider(): ProviderName {
    return this.parts.provider.name;
  }

  /** `nft list tables` on a host: in its namespace, or in its host container. */
  nftList(namespace: string): Promise<string> {
    return this.parts.provider.nftList(namespace);
  }

  /** `nft -f -` with `script` on a host: in its namespace, or in its host container. */
  nftRun(namespace: string, script: string): Promise<void> {
    return this.parts.provider.nftExec(namespace, script, { timeoutMs: 5000 });
  }

  private makeClientHost(h: HostPlan): ClientHost {
    return this.parts.provider.clientHost(h);
  }

  /**
   * The start-up work in flight (data dirs, config files, initdb, servers):
   * a teardown that begins meanwhile (an interrupt) aborts it and waits for it
   * to settle before it removes anything, or a data dir written after the
   * removal would be left behind.
   */
  trackStart(work: Promise<unknown>, abort: () => void): void {
    this.starting = { work, abort };
  }

  get stateFile(): string {
    return this.parts.state.path;
  }

  /** The server node called `name` (`redis1`, `redlock3`, `etcd2`, `zk1`, `pg1`). */
  node(name: string): ServerHandle {
    const n = this.nodes.find((s) => s.name === name);
    if (!n) throw new RangeError(`There is no node \`${name}\`; nodes: ${this.nodes.map((s) => s.name).join(', ')}`);
    return n;
  }

  nodesOf(backend: BackendName): ServerHandle[] {
    return this.nodes.filter((n) => n.backend === backend);
  }

  endpoints(backend?: BackendName): Endpoint[] {
    return this.plan.nodes
      .filter((n) => backend === undefined || n.backend === backend)
      .map((n) => ({
        backend: n.backend,
        node: n.name,
        host: n.ip,
        port: n.port,
        namespace: n.namespace,
        url: schemeOf(n.backend) === 'postgres' ? postgresUrl(n) : `${schemeOf(n.backend)}://${n.ip}:${n.port}`,
        role: n.role,
      }));
  }

  /**
   * Where a lock client connects: every node, or those of the role its spec
   * names (redis-sentinel's clients ask the Sentinels for the master and never
   * name a data node).
   */
  clientEndpoints(backend: BackendName): Endpoint[] {
    const all = this.endpoints(backend);
    const role = this.parts.nodes.find((n) => n.backend === backend)?.spec.clientRole;
    return role === undefined ? all : all.filter((e) => e.role === role);
  }

  /** Add a client host (its own namespace on the switch) to the running cluster. */
  async addClientHost(name: string): Promise<ClientHost> {
    const host: HostPlan = planClientHost(this.plan, name);
    this.plan.clients.push(host);
    await this.parts.provider.addHost(host);
    const client = this.makeClientHost(host);
    this.clients.set(name, client);
    return client;
  }

  clientHost(name: string): ClientHost {
    const c = this.clients.get(name);
    if (!c) throw new RangeError(`There is no client host \`${name}\`; add it with addClientHost(name)`);
    return c;
  }

  clientHosts(): ClientHost[] {
    return [...this.clients.values()];
  }

  /**
   * The current leader's node name as the members report it (etcd: status;
   * ZooKeeper: srvr; redis-sentinel: the master a majority of the Sentinels
   * name, by get-master-addr-by-name), if any.
   */
  async leader(backend: LeaderBackend): Promise<string | undefined> {
    const probe = backendSpec(backend).leader;
    if (probe === undefined) throw new RangeError(`${backend} has no leader probe`);
    return probe(this.plan.nodes.filter((n) => n.backend === backend));
  }

  /** Where a node's or a client process's logs go. */
  logPath(name: string): string {
    return join(this.runDir, 'logs', `${name}.log`);
  }

  /**
   * Leave the cluster running for the next command (`fencecheck up --keep`,
   * or a command that adopted such a cluster): recorded as kept, owned by no
   * process, this process's teardown hooks and the machine's lock let go.
   * The next command adopts it (adopt-cluster.ts), or reclaims it.
   */
  async keep(kept: NonNullable<ClusterState['kept']>): Promise<void> {
    this.parts.state.update((s) => {
      s.kept = kept;
      s.owner.detached = true;
    });
    this.parts.hooks?.uninstall();
    await this.parts.lock.release();
  }

  /**
   * Stop everything, delete every namespace and the data dirs (logs stay;
   * `keepData` keeps the data too), remove the state file. Idempotent; also
   * runs on SIGINT/SIGTERM/SIGHUP while the cluster is up.
   */
  teardown(opts: { keepData?: boolean } = {}): Promise<ReclaimReport> {
    this.tornDown ??= (async () => {
      // First, synchronously: from here on nothing new may be created (see StateFile.assertOpen).
      this.parts.state.close();
      const log = this.parts.log ?? (() => undefined);
      log(`teardown: stopping every process, deleting the ${this.parts.provider.removes}`);
      if (this.starting) {
        this.starting.abort();
        await within(this.starting.work, 60_000);
      }
      await this.nemesis.close().catch(() => undefined);
      await this.parts.provider.teardown(opts);
      const report = await reclaim({ stateFile: this.parts.state.path, ...opts });
      log(`torn down in ${report.elapsedMs} ms`);
      // Only now: a signal that arrives during teardown must wait for it, not end the process halfway.
      this.parts.hooks?.uninstall();
      await this.parts.lock.release();
      return report;
    })();
    return this.tornDown;
  }
}
