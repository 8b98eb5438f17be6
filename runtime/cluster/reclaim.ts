/**
 * Reclaim everything an earlier run left: its recorded processes (identity
 * checked), any process still inside a project namespace, the namespaces
 * (which take their veths and nftables tables with them), the control's veth,
 * project tables in the root namespace (fencecheck creates none there; this is
 * a backstop), PostgreSQL's shared-memory segments left by a killed server,
 * the data dirs (in the run dir and under the system temp dir), and last the
 * state file (so an interrupted reclaim is resumed by the next one). Idempotent, and safe with no state file at
 * all: everything is also found by the project prefix.
 *
 * One slot at a time (core/cluster/slots.ts): only its namespaces and links are found by name, so a reclaim of
 * one slot never touches a cluster running in another. The containers (one cluster a machine) and the root
 * namespace's backstop are slot 0's.
 */
import { removableDataDirs, removeDataDirs } from './data-dirs.js';
import { defaultStateFile } from '../hosts/paths.js';
import { removeAbandonedSegments } from './shared-memory.js';
import { pidsInNamespaces, pidsNaming } from './namespace-pids.js';
import { PREFIX } from '../../core/cluster/cluster-plan.js';
import { runCommand } from '../hosts/run-command.js';
import { StateFile } from '../hosts/state-file.js';
import { killPids, stopProcesses } from '../hosts/stop-processes.js';
import { deleteTopology, projectNamespaces, projectRootLinks } from './topology.js';
import { which } from '../hosts/binaries.js';
import { reclaimContainers, type ContainerReclaim } from './containers/reclaim-containers.js';

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

const NO_CONTAINERS: ContainerReclaim = { containers: [], networks: [], volumes: [] };

async function rootProjectTables(): Promise<string[]> {
  const nft = which('nft');
  if (!nft) return [];
  const out = await runCommand(nft, ['list', 'tables'], { reject: false });
  return out.stdout
    .split('\n')
    .map((l) => l.trim().replace(/^table /, ''))
    .filter((t) => t.split(' ')[1]?.startsWith(PREFIX));
}

export async function reclaim(opts: { stateFile?: string; keepData?: boolean; slot?: number } = {}): Promise<ReclaimReport> {
  const started = Date.now();
  const path = opts.stateFile ?? defaultStateFile(opts.slot ?? 0);
  const state = StateFile.read(path);
  const slot = opts.slot ?? state?.slot ?? 0;
  // Recorded processes first, each with its own graceful stop; then whatever else is inside our namespaces.
  const stopped = await stopProcesses(state?.processes ?? []);
  // Containers by label before the data dirs (bind-mounted into them) go.
  const containers =
    slot === 0 ? await reclaimContainers(undefined, state?.provider === 'containers' && !opts.keepData ? removableDataDirs(state) : []) : NO_CONTAINERS;
  const namespaces = projectNamespaces(slot);
  const strayPids = await killStrays(namespaces, state ? removableDataDirs(state) : []);
  const links = projectRootLinks(slot);
  const rootTables = slot === 0 ? await rootProjectTables() : [];
  // After the servers have ended (nobody attached any more), before their data dirs (which name the segments) go.
  const sharedMemory = await removeAbandonedSegments(state?.shmDataDirs ?? []);
  await deleteTopology(namespaces, links);
  const nft = which('nft');
  for (const t of rootTables) if (nft) await runCommand(nft, ['delete', 'table', ...t.split(' ')], { reject: false });
  const dataDirsRemoved = opts.keepData ? [] : await removeDataDirs(state);
  const stateFile = StateFile.discard(path) ? path : undefined;
  const nsTables = (state?.nftTables ?? []).filter((t) => namespaces.includes(t.namespace)).map((t) => `${t.namespace}: ${t.family} ${t.name}`);
  return {
    processes: [...stopped.stopped, ...stopped.killed],
    strayPids,
    namespaces,
    links,
    nftTables: [...nsTables, ...rootTables.map((t) => `root: ${t}`)],
    stateFile,
    runDir: state?.runDir,
    dataDirsRemoved,
    sharedMemory,
    containers,
    elapsedMs: Date.now() - started,
  };
}

/**
 * Every process still inside our namespaces, or naming one of the run's data
 * dirs anywhere (an `ip netns exec … cp -a` still between its fork and its
 * setns), killed until none is left: one scan misses a child forked after it
 * (initdb forks its bootstrap server), which would live on and write into a
 * data dir the reclaim has just removed. A few rounds at most; each waits for
 * its kills.
 */
async function killStrays(namespaces: readonly string[], dataDirs: readonly string[]): Promise<number[]> {
  const killed: number[] = [];
  for (let round = 0; round < 5; round++) {
    const pids = [...new Set([...pidsInNamespaces(namespaces).keys(), ...pidsNaming(dataDirs)])].filter((p) => !killed.includes(p));
    if (pids.length === 0) break;
    killed.push(...(await killPids(pids)));
  }
  return killed;
}
