/**
 * `down`'s reclaim: every slot that has anything left (a state file, a
 * namespace or a root link of its prefix), each under its own lock, so a slot
 * whose command still runs is left alone (unless forced) while the others are
 * reclaimed. The reports are merged into one, with the slots it covered.
 *
 * And the sweep every cluster start makes of the other slots: a parallel
 * command killed with SIGKILL left a cluster in each of its slots, and the
 * next command, in whichever slot it runs, reclaims them all, slot by slot
 * (a slot whose lock is free belongs to no live command; a cluster kept by
 * `up --keep` is left for its adopter).
 */
import { MAX_SLOTS } from '../../core/cluster/slots.js';
import { defaultStateFile } from '../hosts/paths.js';
import { StateFile } from '../hosts/state-file.js';
import { acquireClusterLock, tryClusterLock, type ClusterLock } from './cluster-lock.js';
import { keptOf } from './kept-cluster.js';
import { ClusterBusyError } from '../hosts/cluster-errors.js';
import { reclaim, type ReclaimReport } from './reclaim.js';
import { removeOrphanedPgTemplates } from './backends/process-pg-template.js';
import { projectNamespaces, projectRootLinks } from './topology.js';

export interface EverySlotReclaim {
  report: ReclaimReport;
  /** The slots reclaimed. */
  slots: number[];
  /** Slots left alone: a live fencecheck process holds them. */
  busy: ClusterBusyError[];
}

/** Whether a slot has something of its own on the machine: a state file, a namespace or a root link. */
function hasLeftovers(slot: number): boolean {
  return StateFile.read(defaultStateFile(slot)) !== undefined || projectNamespaces(slot).length > 0 || projectRootLinks(slot).length > 0;
}

/** Slots with something of theirs on the machine; slot 0 always (the containers, by label, are its). */
export function slotsInUse(): number[] {
  return Array.from({ length: MAX_SLOTS }, (_, s) => s).filter((s) => s === 0 || hasLeftovers(s));
}

/** The other slots' leftovers of dead commands (their lock free, no kept cluster), each reclaimed under its lock; the slots reclaimed. */
export async function reclaimAbandonedSlots(own: number, log: (line: string) => void): Promise<number[]> {
  const reclaimed: number[] = [];
  for (let slot = 0; slot < MAX_SLOTS; slot++) {
    if (slot === own || !hasLeftovers(slot) || keptOf(StateFile.read(defaultStateFile(slot)))) continue;
    const lock = await tryClusterLock(slot);
    if (!lock) continue;
    try {
      const r = await reclaim({ slot });
      log(`reclaimed slot ${slot}, left by a command that ended: ${r.processes.length + r.strayPids.length} processes, ${r.namespaces.length} namespaces`);
      reclaimed.push(slot);
    } finally {
      await lock.release();
    }
  }
  return reclaimed;
}

export async function reclaimEverySlot(opts: { keepData: boolean; force: boolean }): Promise<EverySlotReclaim> {
  const started = Date.now();
  const reports: ReclaimReport[] = [];
  const slots: number[] = [];
  const busy: ClusterBusyError[] = [];
  for (const slot of slotsInUse()) {
    let lock: ClusterLock | undefined;
    try {
      lock = opts.force ? undefined : await acquireClusterLock(defaultStateFile(slot), 0, slot);
    } catch (err) {
      if (!(err instanceof ClusterBusyError)) throw err;
      busy.push(err);
      continue;
    }
    try {
      reports.push(await reclaim({ slot, keepData: opts.keepData }));
      slots.push(slot);
    } finally {
      await lock?.release();
    }
  }
  const report = mergeReports(reports, Date.now() - started);
  // PostgreSQL templates are a process's, not a slot's: those of commands that ended (a SIGKILL) go with the slots.
  if (!opts.keepData) report.dataDirsRemoved.push(...removeOrphanedPgTemplates());
  return { report, slots, busy };
}

function mergeReports(reports: readonly ReclaimReport[], elapsedMs: number): ReclaimReport {
  const all = <K extends keyof ReclaimReport>(k: K): ReclaimReport[K][] => reports.map((r) => r[k]);
  return {
    processes: all('processes').flat(),
    strayPids: all('strayPids').flat(),
    namespaces: all('namespaces').flat(),
    links: all('links').flat(),
    nftTables: all('nftTables').flat(),
    stateFile: all('stateFile').find((f) => f !== undefined),
    runDir: all('runDir').find((d) => d !== undefined),
    dataDirsRemoved: all('dataDirsRemoved').flat(),
    sharedMemory: all('sharedMemory').flat(),
    containers: {
      containers: reports.flatMap((r) => r.containers.containers),
      networks: reports.flatMap((r) => r.containers.networks),
      volumes: reports.flatMap((r) => r.containers.volumes),
    },
    elapsedMs,
  };
}
