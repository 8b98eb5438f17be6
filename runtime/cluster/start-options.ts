/**
 * What `startCluster` is asked for, whichever provider makes the cluster: its own file so that the providers, the
 * shared start-up (start-on-provider.ts) and the warm pool name it without importing the start itself (they were a
 * circle of imports: start-cluster.ts, start-container-cluster.ts, start-on-provider.ts).
 */
import type { BackendName } from '../../core/cluster/cluster-plan.js';
import type { ProviderName } from '../../core/plan/providers.js';
import type { BackendOptions } from './backends/registry.js';

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
