/**
 * A kept cluster (`fencecheck up --keep`), as the state file records it, and
 * whether it fits what a run asks for (pure, but for reading the state file). The next command adopts a
 * cluster that fits (adopt-cluster.ts) and resets it like any warm cluster;
 * one that does not fit is reclaimed, and the run says why.
 *
 * Fitting compares what makes the servers what they are: the provider, the
 * subnet, the set of backends and, for each of them, the options its servers
 * were started with (defaults filled in, so `up`, which names every option,
 * and a run, which names only its backend's, compare equal). Client hosts do
 * not count: a run adds the ones it lacks.
 */
import { DEFAULT_SUBNET } from '../../core/cluster/cluster-plan.js';
import { backendSpec } from './backends/registry.js';
import { chosenSubnet } from './chosen-subnet.js';
import type { StartClusterOptions } from './start-options.js';
import { StateFile, type ClusterState } from '../hosts/state-file.js';
import { defaultStateFile } from '../hosts/paths.js';

/** What a kept cluster was started with: the options that shape its servers, and its client hosts. */
export type KeptOptions = Omit<StartClusterOptions, 'runDir' | 'log' | 'busyTimeoutMs' | 'stateFile' | 'detach' | 'clientHosts'> & { clientHosts: string[] };

export interface KeptCluster {
  options: KeptOptions;
  /** Runs it served since `up --keep` started it. */
  runs: number;
  keptAt: string;
}

/** The kept cluster a state file records, if any. */
export function keptOf(state: ClusterState | undefined): KeptCluster | undefined {
  return state?.kept as KeptCluster | undefined;
}

/** Whether this machine's state file records a kept cluster (a command then takes a warm pool to adopt it). */
export function keptClusterRecorded(stateFile: string = defaultStateFile()): boolean {
  return keptOf(StateFile.read(stateFile)) !== undefined;
}

export function keptOptionsOf(o: StartClusterOptions): KeptOptions {
  const { runDir: _r, log: _l, busyTimeoutMs: _b, stateFile: _s, detach: _d, clientHosts, ...rest } = o;
  return { ...rest, subnet: chosenSubnet(o.subnet) ?? DEFAULT_SUBNET, clientHosts: [...(clientHosts ?? [])] };
}

/** The facts that decide a fit, each spelled as a person would read it. */
function shapeOf(o: Omit<StartClusterOptions, 'clientHosts'>): Record<string, string> {
  const backends = [...new Set(o.backends)].sort();
  const shape: Record<string, string> = {
    provider: o.provider ?? 'namespaces',
    subnet: chosenSubnet(o.subnet) ?? DEFAULT_SUBNET,
    backends: backends.join(', '),
  };
  // Each backend's spec says which of its options make its servers what they are.
  for (const b of backends) Object.assign(shape, backendSpec(b, o).shape);
  return shape;
}

/** Why the kept cluster cannot serve a run asking for `want` (every difference), or undefined when it fits. */
export function keptMismatch(kept: KeptOptions, want: StartClusterOptions): string | undefined {
  const have = shapeOf(kept);
  const need = shapeOf(want);
  const keys = [...new Set([...Object.keys(have), ...Object.keys(need)])];
  const diffs = keys.filter((k) => have[k] !== need[k]).map((k) => `${k}: kept ${have[k] ?? '(none)'}, the run needs ${need[k] ?? '(none)'}`);
  return diffs.length === 0 ? undefined : diffs.join('; ');
}
