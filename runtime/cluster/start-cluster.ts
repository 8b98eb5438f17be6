/**
 * `startCluster`: from nothing to every requested backend ready, on the
 * provider the options name (start-on-provider.ts is the one start-up). This
 * file is the namespaces provider, the default: every host a network
 * namespace of this machine (root), every server a process in it.
 *
 * - preflight: root, the programs each backend needs;
 * - holding the lock: what an earlier run left reclaimed, the address range
 *   checked free;
 * - hosts: the topology (namespaces, veth links, the control bridge);
 *   nodes: ServerNode, commands run through `ip netns exec`.
 *
 * A ClusterStartError names the node, command, exit, last log lines, log path.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendName } from '../../core/cluster/cluster-plan.js';
import type { BackendOptions } from './backends/registry.js';
import { backendSpec } from './backends/registry.js';
import type { ProviderName } from '../../core/plan/providers.js';
import { lookupUser, requireTools, which, type Tool } from '../hosts/binaries.js';
import { runCommand } from '../hosts/run-command.js';
import { CLOCK_DIR, clockFileUnder } from '../hosts/clock-file.js';
import { Cluster } from './cluster.js';
import type { SpecContext } from '../hosts/driver.js';
import { clockLibraryPath, nodeDataDir, pgTemplateDir } from '../hosts/paths.js';
import { assertPrivileged, assertRangeFree } from './preflight.js';
import { reclaim } from './reclaim.js';
import { reclaimAbandonedSlots } from './reclaim-every-slot.js';
import { ServerNode } from './server-node.js';
import { StateFile } from '../hosts/state-file.js';
import { applyTopology, projectNamespaces, projectRootLinks } from './topology.js';
import { chosenSubnet } from './chosen-subnet.js';
import { startOnProvider, type Provider } from './start-on-provider.js';

export interface StartClusterOptions extends BackendOptions {
  backends: readonly BackendName[];
  /** Logs and data go to `<runDir>/logs/<node>.log` and `<runDir>/data/<node>`; default `results/cluster-<time>`. */
  runDir?: string;
  /** Default `10.77.0.0/24`; slot s takes the /24 s above it. */
  subnet?: string;
  /** The slot to start in (core/cluster/slots.ts): its own names, /24, state file and lock; default 0. */
  slot?: number;
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
  return startOnProvider(opts, namespacesProvider());
}

/** Network namespaces of this machine (root), a server process in each server's. */
export function namespacesProvider(): Provider<ServerNode> {
  let tools: Partial<Record<Tool, string>> = {};
  return {
    runDirs: ['logs', 'data', CLOCK_DIR],
    stateOf: () => ({}),
    async preflight(_plan, backends) {
      assertPrivileged();
      tools = requireTools(['ip', ...backends.flatMap((b) => backendSpec(b).tools)] as Tool[]);
    },
    async claimMachine(stateFile, plan, log) {
      if (StateFile.read(stateFile) || projectNamespaces(plan.slot).length > 0 || projectRootLinks(plan.slot).length > 0) {
        const r = await reclaim({ stateFile, slot: plan.slot });
        log(`reclaimed an earlier run: ${r.processes.length + r.strayPids.length} processes, ${r.namespaces.length} namespaces`);
      }
      // What a killed parallel command left in its other slots goes too, whichever slot this one runs in.
      await reclaimAbandonedSlots(plan.slot, log);
      await assertRangeFree(plan.subnet);
    },
    async assemble({ opts, plan, runDir, state, hooks, lock, signal, log }) {
      const clockLibrary = existsSync(clockLibraryPath()) ? clockLibraryPath() : undefined;
      if (!clockLibrary) log('clock library not built (run `npm run setup`): clock faults are unavailable');
      const clockFile = (name: string): string => clockFileUnder(runDir, name);
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
      const runtime = { ctx, state, clockLibrary, clockFile, readyTimeoutMs: opts.readyTimeoutMs ?? 30_000, signal };
      const nodes = plan.nodes.map((n) => new ServerNode(n, backendSpec(n.backend, opts), runtime));
      const cluster = new Cluster({ plan, runDir, state, nodes, clientRuntime: { state, clockLibrary, clockFile }, nft: which('nft'), hooks, lock, log });
      return {
        cluster,
        nodes,
        ctx,
        bringUp: async () => {
          const t0 = Date.now();
          await applyTopology(plan, state);
          log(`topology: ${plan.nodes.length + plan.clients.length} hosts in ${Date.now() - t0} ms`);
        },
        beforePrepare: (n) => n.recordSharedMemory(),
      };
    },
  };
}

export { chosenSubnet };
