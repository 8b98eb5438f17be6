/**
 * The one start-up of a cluster, whichever provider makes its hosts
 * (namespaces on this machine, or containers of a Docker daemon):
 *
 * 1. The plan (names, addresses, ports), the same on every provider.
 * 2. The provider's preflight: root and the programs each backend needs, or
 *    a daemon that answers and this checkout's images.
 * 3. The machine's cluster lock (waiting `busyTimeoutMs` for another
 *    fencecheck process); holding it, the provider reclaims what earlier
 *    runs left and checks its address range.
 * 4. The run directory, the state file, the teardown hooks on signals and
 *    exit; then the provider assembles the cluster (its nodes and hosts),
 *    brings its hosts up, and every backend starts in parallel
 *    (start-backends.ts).
 *
 * Any failure tears everything down and rethrows the first error. With
 * `detach` (`fencecheck up`) the cluster is left running for `down`.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { planClientHost, planCluster, type BackendName, type ClusterPlan } from '../../core/cluster/cluster-plan.js';
import type { ServerHandle, SpecContext } from '../hosts/driver.js';
import { defaultRunDir, defaultStateFile } from '../hosts/paths.js';
import type { ClusterState, StateFile } from '../hosts/state-file.js';
import { chosenSubnet } from './chosen-subnet.js';
import { UsageError } from '../../core/errors.js';
import type { Cluster } from './cluster.js';
import { startHoldingClusterLock, type ClusterLock } from './cluster-lock.js';
import { reclaim } from './reclaim.js';
import { reclaimSync } from './reclaim-sync.js';
import { createClusterState, startBackends } from './start-backends.js';
import type { StartClusterOptions } from './start-options.js';
import { installTeardownHooks, type TeardownHooks } from './teardown-hooks.js';

/** What the provider is given to assemble its cluster, holding the lock. */
export interface Assembly {
  opts: StartClusterOptions;
  plan: ClusterPlan;
  runDir: string;
  state: StateFile;
  /** What stateOf gave, as the state file records it (the containers' run id). */
  recorded: Pick<ClusterState, 'provider' | 'runId'>;
  hooks: TeardownHooks;
  lock: ClusterLock;
  signal: AbortSignal;
  log: (line: string) => void;
}

/** A provider's cluster, assembled but not started: its nodes, their context, and how its hosts come up. */
export interface Assembled<N extends ServerHandle> {
  cluster: Cluster;
  nodes: readonly N[];
  ctx: SpecContext;
  /** The hosts made (namespaces and links, or a network and host containers) and checked. */
  bringUp(): Promise<void>;
  /** Before a node is prepared (namespaces: record PostgreSQL's data dir for its shared memory). */
  beforePrepare?: (node: N) => void;
}

export interface Provider<N extends ServerHandle> {
  /** Checks before the lock is taken; a PreflightError says what to install or start. */
  preflight(plan: ClusterPlan, backends: readonly BackendName[]): Promise<void>;
  /** Holding the lock: whatever earlier runs left (it belongs to no live fencecheck process) reclaimed, the range checked. */
  claimMachine(stateFile: string, plan: ClusterPlan, log: (line: string) => void): Promise<void>;
  /** The run directory's subfolders it writes. */
  runDirs: readonly string[];
  /** What the state file says of the provider (absent: namespaces). */
  stateOf(runDir: string): Pick<ClusterState, 'provider' | 'runId'>;
  assemble(a: Assembly): Promise<Assembled<N>>;
}

/** The plan of the slot the options name (slot 0 by default), its /24 moved up from the chosen one; a slot with no /24 left is a usage error. */
function slotPlan(backends: readonly BackendName[], opts: StartClusterOptions): ClusterPlan {
  const subnet = chosenSubnet(opts.subnet);
  try {
    return planCluster({ backends, ...(subnet ? { subnet } : {}), slot: opts.slot ?? 0 });
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(err.message, 'Give a /24 with room above it for every slot, or fewer slots (--parallel).');
    throw err;
  }
}

export async function startOnProvider<N extends ServerHandle>(opts: StartClusterOptions, provider: Provider<N>): Promise<Cluster> {
  const log = opts.log ?? (() => undefined);
  const backends = [...new Set(opts.backends)];
  const plan = slotPlan(backends, opts);
  for (const name of opts.clientHosts ?? []) plan.clients.push(planClientHost(plan, name));
  await provider.preflight(plan, backends);
  const stateFile = opts.stateFile ?? defaultStateFile(plan.slot);
  return startHoldingClusterLock(
    stateFile,
    opts.busyTimeoutMs ?? 0,
    async (lock) => {
      await provider.claimMachine(stateFile, plan, log);
      const runDir = resolve(opts.runDir ?? defaultRunDir());
      for (const d of provider.runDirs) mkdirSync(join(runDir, d), { recursive: true });
      const recorded = provider.stateOf(runDir);
      const state = createClusterState(stateFile, runDir, plan, recorded);
      let cluster: Cluster | undefined;
      const hooks = installTeardownHooks(
        () => (cluster ? cluster.teardown() : reclaim({ stateFile, slot: plan.slot })),
        () => reclaimSync(stateFile, plan.slot),
      );
      // Aborted when one backend fails, so the others stop starting things that teardown would miss.
      const abort = new AbortController();
      const assembled = await provider.assemble({ opts, plan, runDir, state, recorded, hooks, lock, signal: abort.signal, log });
      cluster = assembled.cluster;
      try {
        await assembled.bringUp();
        await startBackends({
          cluster,
          nodes: assembled.nodes,
          backends,
          ctx: assembled.ctx,
          abort,
          log,
          ...(assembled.beforePrepare ? { beforePrepare: assembled.beforePrepare } : {}),
        });
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
    },
    plan.slot,
  );
}
