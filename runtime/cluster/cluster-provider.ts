/**
 * One provider, whole: what makes a cluster's hosts (namespaces on this
 * machine, or containers of a Docker daemon) behind one interface, chosen
 * once by name (provider-registry.ts), so that nothing outside the providers
 * asks which one it is. Its parts:
 *
 * - `start`: the one start-up (start-on-provider.ts) with its own preflight,
 *   reclaim of the machine and assembly;
 * - `keeps`: the same assembly over a kept cluster's recorded servers, for
 *   adopt-cluster.ts, where its clusters are kept for the next command;
 * - `doctor`: its part of `fencecheck doctor`;
 * - the running cluster's hosts, firewalls and teardown: its ProviderHooks
 *   (cluster.ts), which its assembly hands the Cluster;
 * - what its runs leave behind, reclaimed: its ProviderLeftovers
 *   (provider-leftovers.ts), apart because every start and every teardown
 *   reclaims, and the start must not import itself back.
 */
import type { ProviderName } from '../../core/plan/providers.js';
import type { ServerHandle } from '../hosts/driver.js';
import type { ProcessIdentity } from '../hosts/process-info.js';
import type { Cluster } from './cluster.js';
import type { DoctorCheck } from './doctor-check.js';
import type { Assembly, Provider } from './start-on-provider.js';
import type { StartClusterOptions } from './start-options.js';

/** A server node that can take over a server another fencecheck process started (by pid, comm and start time). */
export interface AdoptableNode extends ServerHandle {
  adopt(id: ProcessIdentity): void;
}

/** What adopt-cluster.ts needs of a provider's start-up (its Provider, start-on-provider.ts): the preflight, and the assembly over the kept cluster. */
export interface KeptAssembly {
  preflight: Provider<ServerHandle>['preflight'];
  assemble(a: Assembly): Promise<{ cluster: Cluster; nodes: readonly AdoptableNode[] }>;
}

export interface DoctorOptions {
  subnet?: string;
  stateFile?: string;
}

export interface ProviderDoctor {
  /** Checks run whichever provider is chosen (cheap, no root): its `provider` line says from them whether it can run here. Absent: checked only when chosen. */
  always?(): Promise<DoctorCheck[]>;
  /** Its checks when it is the chosen provider, given what `always` found. */
  chosen(opts: DoctorOptions, always: readonly DoctorCheck[] | undefined): Promise<DoctorCheck[]>;
  /** The names of its checks that report leftovers: they do not make it unusable. */
  leftovers: readonly string[];
}

export interface ClusterProvider {
  name: ProviderName;
  start(opts: StartClusterOptions): Promise<Cluster>;
  /** The start-up's parts, to rebuild a cluster `up --keep` left; absent where its clusters are not kept (PROVIDER_FACTS' `notKept`). */
  keeps?(): KeptAssembly;
  doctor: ProviderDoctor;
}
