/** What a reclaim did (reclaim.ts), and a provider's part of it (provider-leftovers.ts): types only, so the providers' leftovers name them without importing the reclaim or the registry. */
import type { ContainerReclaim } from './containers/reclaim-containers.js';
import type { ClusterState } from '../hosts/state-file.js';

export interface ReclaimReport {
  /** Recorded processes that ended, by name. */
  processes: string[];
  /** Unrecorded processes found inside project namespaces and killed. */
  strayPids: number[];
  namespaces: string[];
  links: string[];
  /** nftables tables that went away (with their namespaces, or deleted in the root namespace). */
  nftTables: string[];
  /** The state file that was read and removed, if any. */
  stateFile: string | undefined;
  runDir: string | undefined;
  /** Data dirs deleted (logs are always kept). */
  dataDirsRemoved: string[];
  /** System V shared-memory segments of recorded PostgreSQL data dirs, abandoned by a killed server and removed. */
  sharedMemory: string[];
  /** The containers provider's containers, networks and volumes (by the project's label) removed. */
  containers: ContainerReclaim;
  elapsedMs: number;
}

/** The fields a provider's own leftovers fill (each provider its own; reclaim.ts gives the rest empty). */
export type ProviderReclaim = Partial<Pick<ReclaimReport, 'strayPids' | 'namespaces' | 'links' | 'nftTables' | 'containers'>>;

/** One provider's part of a reclaim (provider-leftovers.ts lists them). */
export interface ProviderLeftovers {
  /** Remove its leftovers in `slot` (the state file's, if any), once the recorded processes have stopped. */
  reclaim(state: ClusterState | undefined, slot: number, o: { keepData: boolean }): Promise<ProviderReclaim>;
  /** The same, blocking (an exit handler has no event loop), once the recorded processes have been killed. */
  reclaimSync(state: ClusterState | undefined, slot: number): void;
}
