/**
 * The namespaces provider, the default: every host a network namespace of
 * this machine (root), every server a process in it (ServerNode), commands
 * run through `ip netns exec`.
 *
 * - preflight: root, the programs each backend needs;
 * - holding the lock: what an earlier run left reclaimed, the address range
 *   checked free;
 * - hosts: the topology (namespaces, veth links, the control bridge);
 * - a cluster `up --keep` left is adopted (adopt-cluster.ts) through the same
 *   assembly, its servers taken over by pid;
 * - what its runs leave (processes in its namespaces, the namespaces, the
 *   control's veth) is namespace-leftovers.ts'.
 *
 * A ClusterStartError names the node, command, exit, last log lines, log path.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterPlan } from '../../core/cluster/cluster-plan.js';
import { backendSpec } from './backends/registry.js';
import { lookupUser, requireTools, which, type Tool } from '../hosts/binaries.js';
import { ClientHost, type ClientRuntime } from '../hosts/client-host.js';
import { clockFileUnder, CLOCK_DIR } from '../hosts/clock-file.js';
import type { SpecContext } from '../hosts/driver.js';
import { clockLibraryPath, nodeDataDir, providerDataBase } from '../hosts/paths.js';
import { processPgTemplate, removeOrphanedPgTemplates } from './backends/process-pg-template.js';
import { runCommand } from '../hosts/run-command.js';
import { StateFile } from '../hosts/state-file.js';
import { Cluster, type ProviderHooks } from './cluster.js';
import type { ClusterProvider } from './cluster-provider.js';
import { namespaceChecks } from './namespace-doctor.js';
import { assertPrivileged, assertRangeFree } from './preflight.js';
import { reclaim } from './reclaim.js';
import { reclaimAbandonedSlots } from './reclaim-every-slot.js';
import { ServerNode } from './server-node.js';
import { startOnProvider, type Provider } from './start-on-provider.js';
import { applyHost, applyTopology, projectNamespaces, projectRootLinks } from './topology.js';

export const namespaces: ClusterProvider & { name: 'namespaces' } = {
  name: 'namespaces',
  start: (opts) => startOnProvider(opts, namespacesProvider()),
  keeps: () => namespacesProvider(),
  doctor: { chosen: (opts) => namespaceChecks(opts), leftovers: ['leftovers'] },
};

/** Network namespaces of this machine (root), a server process in each server's. */
function namespacesProvider(): Provider<ServerNode> {
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
      const templates = removeOrphanedPgTemplates();
      if (templates.length > 0) log(`removed ${templates.length} PostgreSQL template(s) left by ended commands: ${templates.join(', ')}`);
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
        dataDir: (n) => nodeDataDir(runDir, n, providerDataBase('namespaces')),
        logPath: (n) => join(runDir, 'logs', `${n.name}.log`),
        execOnHost: (n, argv, o) => runCommand('ip', ['netns', 'exec', n.namespace, ...argv], { timeoutMs: o?.timeoutMs ?? 30_000 }),
        userIds: async (name) => lookupUser(name),
        pgTemplate: processPgTemplate(),
      };
      const runtime = { ctx, state, clockLibrary, clockFile, readyTimeoutMs: opts.readyTimeoutMs ?? 30_000, signal };
      const nodes = plan.nodes.map((n) => new ServerNode(n, backendSpec(n.backend, opts), runtime));
      const clientRuntime = { state, clockLibrary, clockFile };
      const nft = which('nft');
      const provider = namespaceHooks(plan, state, clientRuntime, nft);
      const cluster = new Cluster({ plan, runDir, state, nodes, clientRuntime, nft, hooks, lock, log, provider });
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

/** What the cluster does on this machine's namespaces: a host is a namespace, its firewall run through `ip netns exec`. */
function namespaceHooks(plan: ClusterPlan, state: StateFile, clientRuntime: ClientRuntime, nft: string | undefined): ProviderHooks {
  return {
    name: 'namespaces',
    removes: 'namespaces',
    clientHost: (h) => new ClientHost(h, clientRuntime),
    addHost: (h) => applyHost(plan, h, state),
    nftExec: async (namespace, script, o) => {
      await runCommand('ip', ['netns', 'exec', namespace, nft ?? 'nft', '-f', '-'], {
        input: script,
        ...(o?.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
        hint: 'Check that nftables is installed (`fencecheck doctor`) and the kernel has nf_tables.',
      });
    },
    nftList: async (namespace) => (await runCommand('ip', ['netns', 'exec', namespace, nft ?? 'nft', 'list', 'tables'], { timeoutMs: 5000 })).stdout,
    // Nothing of its own: the namespaces and their processes are the reclaim's (namespace-leftovers.ts).
    teardown: async () => undefined,
  };
}
