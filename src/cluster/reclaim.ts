/**
 * Reclaim everything an earlier run left: its recorded processes (identity
 * checked), any process still inside a project namespace, the namespaces
 * (which take their veths and nftables tables with them), the control's veth,
 * project tables in the root namespace (fencecheck creates none there; this is
 * a backstop), and the state file. Idempotent, and safe with no state file at
 * all: everything is also found by the project prefix.
 */
import { existsSync } from 'node:fs';
import { rm, rmdir } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { defaultStateFile, sharedDataDir } from './paths.js';
import { pidsInNamespaces } from './namespace-pids.js';
import { PREFIX } from './plan.js';
import { runCommand } from './run-command.js';
import { StateFile, type ClusterState } from './state-file.js';
import { killPids, stopProcesses } from './stop-processes.js';
import { deleteTopology, projectNamespaces, projectRootLinks } from './topology.js';
import { which } from './binaries.js';

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
  elapsedMs: number;
}

/**
 * Delete the run's data dirs once nothing runs in them (an all-backend run
 * leaves ~250 MB, mostly etcd's preallocated WAL). Only `<runDir>/data/<name>`
 * and `<sharedDataDir(runDir)>/<name>` paths are touched, whatever else the
 * state file might say.
 */
async function removeDataDirs(state: ClusterState | undefined): Promise<string[]> {
  if (!state || !isAbsolute(state.runDir)) return [];
  const shared = sharedDataDir(state.runDir);
  const dirs = state.dataDirs.filter((d) => (dirname(d) === join(state.runDir, 'data') || dirname(d) === shared) && existsSync(d));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  await rmdir(shared).catch(() => undefined);
  return dirs;
}

async function rootProjectTables(): Promise<string[]> {
  const nft = which('nft');
  if (!nft) return [];
  const out = await runCommand(nft, ['list', 'tables'], { reject: false });
  return out.stdout.split('\n').map((l) => l.trim().replace(/^table /, '')).filter((t) => t.split(' ')[1]?.startsWith(PREFIX));
}

export async function reclaim(opts: { stateFile?: string; keepData?: boolean } = {}): Promise<ReclaimReport> {
  const started = Date.now();
  const path = opts.stateFile ?? defaultStateFile();
  const state = StateFile.read(path);
  // Recorded processes first, each with its own graceful stop; then whatever else is inside our namespaces.
  const stopped = await stopProcesses(state?.processes ?? []);
  const namespaces = projectNamespaces();
  const strayPids = await killPids([...pidsInNamespaces(namespaces).keys()]);
  const links = projectRootLinks();
  const rootTables = await rootProjectTables();
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
    elapsedMs: Date.now() - started,
  };
}
