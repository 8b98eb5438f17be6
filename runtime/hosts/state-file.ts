/**
 * The state file: what a run created (namespaces, the control's veth, pids
 * with their command names and start times, nftables tables, data dirs, the
 * data dirs whose servers hold a shared-memory segment).
 *
 * It is written before each thing is created, synchronously and atomically
 * (runtime/store/atomic-write.ts: a new temporary file, then rename), so a harness killed with SIGKILL at
 * any instant leaves a file that names at least everything that exists. The
 * next `fencecheck up` or `fencecheck down` reads it and reclaims all of it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ProcessIdentity } from './process-info.js';
import { TeardownStartedError } from './cluster-errors.js';
import { writeFileAtomic } from '../store/atomic-write.js';

export interface ProcessRecord extends ProcessIdentity {
  /** Node or client process name. */
  name: string;
  namespace?: string;
  /** Teardown sends this signal, then SIGKILL after `graceMs`. */
  stopSignal: NodeJS.Signals;
  graceMs: number;
}

export interface NftTableRecord {
  namespace: string;
  family: string;
  name: string;
}

export interface ClusterState {
  version: 1;
  createdAt: string;
  /** The slot the cluster runs in (core/cluster/slots.ts); absent in files of slot 0 and of versions before slots. */
  slot?: number;
  runDir: string;
  subnet: string;
  /** The process that created the cluster; `detached` when it left it running on purpose (`fencecheck up`). */
  owner: ProcessIdentity & { detached: boolean };
  namespaces: string[];
  rootLinks: string[];
  processes: ProcessRecord[];
  nftTables: NftTableRecord[];
  dataDirs: string[];
  /**
   * Data dirs of servers that create a System V shared-memory segment
   * (PostgreSQL), recorded before the server starts: reclaim removes the
   * segment their postmaster.pid names once nobody is attached (shared-memory.ts).
   * Absent in files written before it existed.
   */
  shmDataDirs?: string[];
  /** `containers` when the containers provider made the cluster (reclaimed by label too); absent for namespaces. */
  provider?: 'containers';
  /** The containers provider's run id (the `org.fencecheck.run` label). */
  runId?: string;
  /**
   * Left by `fencecheck up --keep` for the next commands to adopt: the options
   * its servers were started with (read by runtime/cluster/kept-cluster.ts,
   * which knows their type; this folder does not import the cluster's), the
   * runs it served, when it was kept.
   */
  kept?: { options: unknown; runs: number; keptAt: string };
}

export class StateFile {
  private constructor(
    readonly path: string,
    private current: ClusterState,
  ) {}

  static create(path: string, initial: ClusterState): StateFile {
    const file = new StateFile(path, initial);
    file.write();
    return file;
  }

  /** Go on writing a state file another process wrote (a cluster kept by `fencecheck up --keep`, adopted). */
  static adopt(path: string, current: ClusterState): StateFile {
    return new StateFile(path, current);
  }

  /** The recorded state, or undefined when there is none (or it is unreadable: reclaim then sweeps by name). */
  static read(path: string): ClusterState | undefined {
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as ClusterState;
      return parsed.version === 1 ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  get state(): Readonly<ClusterState> {
    return this.current;
  }

  private closed = false;

  /** True once teardown has begun: nothing new may be created from then on. */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Call before creating anything (a namespace, a process): throws once
   * teardown has begun. Teardown closes the file synchronously before it lists
   * what to remove, so a thing created after that list would escape it; this
   * refuses to create it instead (JavaScript runs one thing at a time, so there
   * is no gap between this check and the creation that follows it).
   */
  assertOpen(what: string): void {
    if (this.closed) throw new TeardownStartedError(what);
  }

  /** Change the state and write it at once (a no-op once closed). */
  update(change: (s: ClusterState) => void): void {
    if (this.closed) return;
    change(this.current);
    this.write();
  }

  /**
   * Stop writing: teardown reads the file and then removes it, and a late event
   * (a server's exit being noticed) must not write it back afterwards.
   */
  close(): void {
    this.closed = true;
  }

  /** Delete the file at `path`; true if there was one. */
  static discard(path: string): boolean {
    if (!existsSync(path)) return false;
    rmSync(path, { force: true });
    return true;
  }

  private write(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    // The store's writer: a temporary file nobody can plant a link at, renamed over. Not fsynced: a killed
    // harness is what the file is for; a machine that crashed lost its namespaces and processes too.
    writeFileAtomic(this.path, JSON.stringify(this.current, null, 2) + '\n', { durable: false });
  }
}

export function addUnique<T>(list: T[], item: T, same: (a: T, b: T) => boolean = (a, b) => a === b): void {
  if (!list.some((x) => same(x, item))) list.push(item);
}
