/**
 * Adopt the cluster `fencecheck up --keep` (or an earlier command that had
 * adopted it) left running: holding the machine's lock, rebuild the Cluster
 * of the namespaces provider over the recorded servers (by pid, comm and
 * start time) and namespaces, add the client hosts the run lacks, and own the
 * state file from now on (its teardown hooks installed, so a signal or a
 * crash is reclaimed as for any cluster). The warm pool then resets and
 * checks it like any cluster it reuses.
 *
 * Not adopted, with the reason (the caller starts fresh, and its start
 * reclaims the kept cluster): a cluster on a provider whose clusters are not
 * kept (the containers provider: its ClusterProvider has no `keeps`), one that
 * does not fit the run (kept-cluster.ts), one whose servers are gone. A
 * cluster not left on purpose (its owner runs: the start's busy check; its
 * owner died mid-run: the start reclaims it) is not adopted.
 */
import { planClientHost, planCluster, type BackendName } from '../../core/cluster/cluster-plan.js';
import { defaultStateFile } from '../hosts/paths.js';
import { isSameProcess, ownIdentity } from '../hosts/process-info.js';
import { StateFile } from '../hosts/state-file.js';
import type { Cluster } from './cluster.js';
import { acquireClusterLock } from './cluster-lock.js';
import { keptMismatch, keptOf } from './kept-cluster.js';
import { reclaim } from './reclaim.js';
import { reclaimSync } from './reclaim-sync.js';
import { clusterProvider } from './provider-registry.js';
import type { StartClusterOptions } from './start-options.js';
import { providerFacts } from '../../core/plan/providers.js';
import { installTeardownHooks } from './teardown-hooks.js';

export type Adoption = { cluster: Cluster; runs: number } | { because: string } | undefined;

export async function adoptKeptCluster(want: StartClusterOptions, log: (line: string) => void): Promise<Adoption> {
  const stateFile = want.stateFile ?? defaultStateFile();
  const before = StateFile.read(stateFile);
  const kept = keptOf(before);
  if (!before || !kept) return undefined;
  // Only a cluster left on purpose: one whose owner runs is busy, one whose owner died mid-run is reclaimed by the start.
  if (!before.owner.detached) return undefined;
  const lock = await acquireClusterLock(stateFile, want.busyTimeoutMs ?? 0);
  try {
    // Read again holding the lock: another command may have adopted or reclaimed it meanwhile.
    const state = StateFile.read(stateFile);
    const k = keptOf(state);
    if (!state || !k || !state.owner.detached) return release(undefined);
    const provider = clusterProvider(state.provider);
    const kept = provider.keeps?.();
    if (!kept)
      return release({
        because: `the kept cluster runs on the ${provider.name} provider, whose clusters ${providerFacts(provider.name).notKept}, not adopted by the next`,
      });
    const misfit = keptMismatch(k.options, want);
    if (misfit) return release({ because: `the cluster kept by \`fencecheck up --keep\` does not fit this run (${misfit})` });
    const backends = [...new Set(k.options.backends)] as BackendName[];
    const plan = planCluster({ backends, subnet: state.subnet });
    // Its servers must all be there, as recorded (a client process left over is the reset's to end, not a reason to start afresh).
    const alive = (name: string): boolean => state.processes.some((p) => p.name === name && isSameProcess(p));
    const gone = plan.nodes.filter((n) => !alive(n.name)).map((n) => n.name);
    if (gone.length > 0) return release({ because: `the kept cluster's ${gone.join(', ')} ${gone.length === 1 ? 'is' : 'are'} gone` });

    for (const name of k.options.clientHosts) plan.clients.push(planClientHost(plan, name));
    await kept.preflight(plan, backends);
    const file = StateFile.adopt(stateFile, state);
    let cluster: Cluster | undefined;
    const hooks = installTeardownHooks(
      () => (cluster ? cluster.teardown() : reclaim({ stateFile })),
      () => reclaimSync(stateFile),
    );
    file.update((s) => (s.owner = { ...ownIdentity(), detached: false }));
    const assembled = await kept.assemble({
      opts: { ...k.options, stateFile },
      plan,
      runDir: state.runDir,
      state: file,
      // What the start recorded of the provider (the containers' run id; nothing for namespaces).
      recorded: { provider: state.provider, runId: state.runId },
      hooks,
      lock,
      signal: new AbortController().signal,
      log,
    });
    cluster = assembled.cluster;
    for (const node of assembled.nodes) {
      const rec = state.processes.find((p) => p.name === node.name);
      if (rec) node.adopt(rec);
    }
    for (const name of want.clientHosts ?? []) if (!plan.clients.some((c) => c.name === name)) await cluster.addClientHost(name);
    log(`adopted the cluster kept by \`fencecheck up --keep\` (${state.runDir}, ${k.runs} runs since)`);
    return { cluster, runs: k.runs };
  } catch (err) {
    await lock.release();
    throw err;
  }

  async function release(a: Adoption): Promise<Adoption> {
    await lock.release();
    return a;
  }
}
