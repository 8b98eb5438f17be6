/**
 * The part of a cluster's start that both providers share: for every
 * backend in parallel, each node prepared (data dir, configuration, initdb),
 * started, and probed until ready; the first failure aborts the others and
 * is rethrown. The work is registered with the cluster, so a teardown that
 * begins meanwhile (an interrupt) waits for it.
 */
import type { Cluster } from './cluster.js';
import { TeardownStartedError } from '../hosts/cluster-errors.js';
import type { ServerHandle, SpecContext } from '../hosts/driver.js';
import { nodeDataDir, providerDataBase } from '../hosts/paths.js';
import { nodeCount, type BackendName, type ClusterPlan } from '../../core/cluster/cluster-plan.js';
import { ownIdentity } from '../hosts/process-info.js';
import { StateFile, type ClusterState } from '../hosts/state-file.js';

export interface StartBackendsOptions<N extends ServerHandle> {
  cluster: Cluster;
  nodes: readonly N[];
  backends: readonly BackendName[];
  ctx: SpecContext;
  /** Aborted when one backend fails, so the others stop starting things that teardown would miss. */
  abort: AbortController;
  log: (line: string) => void;
  /** Before a node is prepared (namespaces: record PostgreSQL's data dir for its shared memory). */
  beforePrepare?: (node: N) => void;
}

export async function startBackends<N extends ServerHandle>(o: StartBackendsOptions<N>): Promise<void> {
  const { abort } = o;
  const work = Promise.allSettled(
    o.backends.map(async (backend) => {
      try {
        const t = Date.now();
        const group = o.nodes.filter((n) => n.backend === backend);
        for (const n of group) o.beforePrepare?.(n);
        await settleAll(group.map((n) => n.spec.prepare(n.plan, o.ctx)));
        await settleAll(group.map((n) => n.start()));
        await settleAll(group.map((n) => n.ready()));
        o.log(`${backend}: ${nodeCount(backend)} node(s) ready in ${Date.now() - t} ms (${group[0]?.spec.describe() ?? ''})`);
      } catch (err) {
        abort.abort(err);
        throw err;
      }
    }),
  );
  o.cluster.trackStart(work, () => abort.abort(new TeardownStartedError('the remaining servers')));
  const results = await work;
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  // The first failure, not an abort it caused elsewhere.
  if (failed) throw abort.signal.reason ?? failed.reason;
}

/**
 * Like Promise.all, but waits for every promise to settle before rejecting with
 * the first error: a node still writing its data dir when a sibling fails must
 * finish before teardown removes the data dirs.
 */
async function settleAll(work: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The state file of a cluster about to start, owned by this process, written
 * before anything is made: what a reclaim needs if this process dies. Each
 * provider adds what it makes as it makes it.
 */
export function createClusterState(stateFile: string, runDir: string, plan: ClusterPlan, provider: Pick<ClusterState, 'provider' | 'runId'> = {}): StateFile {
  return StateFile.create(stateFile, {
    version: 1,
    createdAt: new Date().toISOString(),
    ...(plan.slot !== 0 ? { slot: plan.slot } : {}),
    runDir,
    subnet: `${plan.subnet}.0/24`,
    owner: { ...ownIdentity(), detached: false },
    namespaces: [],
    rootLinks: [],
    processes: [],
    nftTables: [],
    // Not PostgreSQL's initdb template: it is the process's, shared by its clusters (backends/process-pg-template.ts).
    dataDirs: plan.nodes.map((n) => nodeDataDir(runDir, n, providerDataBase(provider.provider))),
    ...provider,
  });
}
