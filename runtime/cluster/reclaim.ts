/**
 * Reclaim everything an earlier run left: its recorded processes (identity
 * checked), then what each provider left of its own (provider-leftovers.ts:
 * the namespaces' strays, namespaces and links; the containers by label),
 * PostgreSQL's shared-memory segments left by a killed server, the data dirs
 * (in the run dir and under the system temp dir), and last the state file (so
 * an interrupted reclaim is resumed by the next one). Idempotent, and safe
 * with no state file at all: everything is also found by the project prefix
 * or label.
 *
 * One slot at a time (core/cluster/slots.ts): only its namespaces and links are found by name, so a reclaim of
 * one slot never touches a cluster running in another. The containers (one cluster a machine) and the root
 * namespace's backstop are slot 0's.
 */
import { removeDataDirs } from './data-dirs.js';
import { defaultStateFile } from '../hosts/paths.js';
import { removeAbandonedSegments } from './shared-memory.js';
import { StateFile } from '../hosts/state-file.js';
import { stopProcesses } from '../hosts/stop-processes.js';
import { PROVIDER_LEFTOVERS } from './provider-leftovers.js';
import type { ProviderReclaim, ReclaimReport } from './reclaim-report.js';

export type { ReclaimReport } from './reclaim-report.js';

const NOTHING: Required<ProviderReclaim> = {
  strayPids: [],
  namespaces: [],
  links: [],
  nftTables: [],
  containers: { containers: [], networks: [], volumes: [] },
};

export async function reclaim(opts: { stateFile?: string; keepData?: boolean; slot?: number } = {}): Promise<ReclaimReport> {
  const started = Date.now();
  const path = opts.stateFile ?? defaultStateFile(opts.slot ?? 0);
  const state = StateFile.read(path);
  const slot = opts.slot ?? state?.slot ?? 0;
  // Recorded processes first, each with its own graceful stop; then whatever each provider finds of its own.
  const stopped = await stopProcesses(state?.processes ?? []);
  let parts = NOTHING;
  for (const leftovers of Object.values(PROVIDER_LEFTOVERS))
    parts = { ...parts, ...(await leftovers.reclaim(state, slot, { keepData: opts.keepData ?? false })) };
  // After the servers have ended (nobody attached any more), before their data dirs (which name the segments) go.
  const sharedMemory = await removeAbandonedSegments(state?.shmDataDirs ?? []);
  const dataDirsRemoved = opts.keepData ? [] : await removeDataDirs(state);
  const stateFile = StateFile.discard(path) ? path : undefined;
  return {
    processes: [...stopped.stopped, ...stopped.killed],
    ...parts,
    stateFile,
    runDir: state?.runDir,
    dataDirsRemoved,
    sharedMemory,
    elapsedMs: Date.now() - started,
  };
}
