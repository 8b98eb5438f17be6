/**
 * `startCluster`: from nothing to every requested backend ready.
 *
 * 1. Preflight: root, the programs each backend needs.
 * 2. Take the machine's cluster lock (waiting `busyTimeoutMs` for another
 *    fencecheck process), reclaim what an earlier run left, check the
 *    address range is free.
 * 3. Write the state file, install teardown on signals and exit.
 * 4. Create the topology, then for every backend in parallel: prepare each
 *    node (data dir, config, initdb), start them all, wait until each is ready.
 *
 * Any failure tears everything down and rethrows the first error (a
 * ClusterStartError names the node, command, exit, last log lines, log path).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { planCluster, planClientHost, type BackendName, type ClusterPlan } from '../../core/cluster/cluster-plan.js';
import { chosenSubnet } from './chosen-subnet.js';
import type { BackendOptions } from './backends/registry.js';
import { backendSpec } from './backends/registry.js';
import type { ProviderName } from '../../core/plan/providers.js';
import { lookupUser, requireTools, TOOLS_OF, which, type Tool } from '../hosts/binaries.js';
import { runCommand } from '../hosts/run-command.js';
import { Cluster } from './cluster.js';
import type { SpecContext } from '../hosts/driver.js';
import { clockLibraryPath, defaultRunDir, defaultStateFile, nodeDataDir, pgTemplateDir } from '../hosts/paths.js';
import { assertPrivileged, assertRangeFree } from './preflight.js';
import { reclaim } from './reclaim.js';
import { startHoldingClusterLock, type ClusterLock } from './cluster-lock.js';
import { reclaimSync } from './reclaim-sync.js';
import { ServerNode } from './server-node.js';
import { StateFile } from '../hosts/state-file.js';
import { installTeardownHooks } from './teardown-hooks.js';
import { createClusterState, startBackends } from './start-backends.js';
import { applyTopology, projectNamespaces, projectRootLinks } from './topology.js';

export interface StartClusterOptions extends BackendOptions {
  backends: readonly BackendName[];
  /** Logs and data go to `<runDir>/logs/<node>.log` and `<runDir>/data/<node>`; default `results/cluster-<time>`. */
  runDir?: string;
  /** Default `10.77.0.0/24`. */
  subnet?: string;
  /** Client hosts to create with the topology (more can be added later). */
  clientHosts?: readonly string[];
  /** Per node; default 30 s. */
  readyTimeoutMs?: number;
  stateFile?: string;
  /** Leave the cluster running when this process ends (`fencecheck up`); default false. */
  detach?: boolean;
  /** Wait this long for another fencecheck process's cluster to end before ClusterBusyError; default 0. */
  busyTimeoutMs?: number;
  /** Progress lines. */
  log?: (line: string) => void;
  /** `namespaces` (default: this machine's network namespaces, root) or `containers` (a Docker daemon; runtime/cluster/containers). */
  provider?: ProviderName;
}

export { PROVIDERS, type ProviderName } from '../../core/plan/providers.js';

export async function startCluster(opts: StartClusterOptions): Promise<Cluster> {
  if (opts.provider === 'containers') return (await import('./containers/start-container-cluster.js')).startContainerCluster(opts);
  const log = opts.log ?? (() => undefined);
  const backends = [...new Set(opts.backends)];
  const subnet = chosenSubnet(opts.subnet);
  const plan = planCluster({ backends, ...(subnet ? { subnet } : {}) });
  for (const name of opts.clientHosts ?? []) plan.clients.push(planClientHost(plan, name));

  assertPrivileged();
  const tools = requireTools(['ip', ...backends.flatMap((b) => TOOLS_OF[b])] as Tool[]);
  const stateFile = opts.stateFile ?? defaultStateFile();
  return startHoldingClusterLock(stateFile, opts.busyTimeoutMs ?? 0, (lock) => startLocked(opts, plan, tools, stateFile, lock, log));
}

async function startLocked(
  opts: StartClusterOptions,
  plan: ClusterPlan,
  tools: Partial<Record<Tool, string>>,
  stateFile: string,
  lock: ClusterLock,
  log: (line: string) => void,
): Promise<Cluster> {
  const backends = [...new Set(opts.backends)];
  // Holding the lock, whatever is left belongs to no live fencecheck process.
  if (StateFile.read(stateFile) || projectNamespaces().length > 0 || projectRootLinks().length > 0) {
    const r = await reclaim({ stateFile });
    log(`reclaimed an earlier run: ${r.processes.length + r.strayPids.length} processes, ${r.namespaces.length} namespaces`);
  }
  await assertRangeFree(plan.subnet);

  const runDir = resolve(opts.runDir ?? defaultRunDir());
  for (const d of ['logs', 'data', 'clock']) mkdirSync(join(runDir, d), { recursive: true });
  const state = createClusterState(stateFile, runDir, plan);

  let cluster: Cluster | undefined;
  const hooks = installTeardownHooks(
    () => (cluster ? cluster.teardown() : reclaim({ stateFile })),
    () => reclaimSync(stateFile),
  );
  const clockLibrary = existsSync(clockLibraryPath()) ? clockLibraryPath() : undefined;
  if (!clockLibrary) log('clock library not built (run `npm run setup`): clock faults are unavailable');
  const clockFile = (name: string): string => join(runDir, 'clock', `${name}.offset`);
  const ctx: SpecContext = {
    runDir,
    plan,
    tools,
    dataDir: (n) => nodeDataDir(runDir, n),
    logPath: (n) => join(runDir, 'logs', `${n.name}.log`),
    execOnHost: (n, argv, o) => runCommand('ip', ['netns', 'exec', n.namespace, ...argv], { timeoutMs: o?.timeoutMs ?? 30_000 }),
    userIds: async (name) => lookupUser(name),
    pgTemplate: pgTemplateDir(runDir),
  };
  // Aborted when one backend fails, so the others stop starting things that teardown would miss.
  const abort = new AbortController();
  const runtime = { ctx, state, clockLibrary, clockFile, readyTimeoutMs: opts.readyTimeoutMs ?? 30_000, signal: abort.signal };
  const nodes = plan.nodes.map((n) => new ServerNode(n, backendSpec(n.backend, opts), runtime));
  cluster = new Cluster({ plan, runDir, state, nodes, clientRuntime: { state, clockLibrary, clockFile }, nft: which('nft'), hooks, lock, log });

  try {
    const t0 = Date.now();
    await applyTopology(plan, state);
    log(`topology: ${plan.nodes.length + plan.clients.length} hosts in ${Date.now() - t0} ms`);
    await startBackends({ cluster, nodes, backends, ctx, abort, log, beforePrepare: (n) => n.recordSharedMemory() });
  } catch (err) {
    await cluster.teardown().catch(() => undefined);
    throw err;
  }
  if (opts.detach) {
    hooks.uninstall();
    state.update((s) => (s.owner.detached = true));
    // Left running for `fencecheck down`; the next start may reclaim it.
    await lock.release();
  }
  return cluster;
}

export { chosenSubnet };
