/**
 * Where things live: the project root (found from this file, so it works from
 * src/ under vitest and from dist/ after a build), the clock library, the
 * machine-wide state file and the per-run directory.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverSystem, type BackendName } from '../../core/systems/servers.js';
import { providerFacts, type ProviderName } from '../../core/plan/providers.js';

let cachedRoot: string | undefined;

/** The directory holding fencecheck's package.json. */
export function projectRoot(): string {
  if (cachedRoot !== undefined) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'fencecheck') {
      cachedRoot = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('fencecheck: cannot find the project root (package.json named fencecheck)');
    dir = parent;
  }
}

/** The LD_PRELOAD wall-clock library that `fencecheck setup` builds. */
export function clockLibraryPath(): string {
  return join(projectRoot(), 'native', 'build', 'libfc-clock.so');
}

export function clockLibrarySource(): string {
  return join(projectRoot(), 'native', 'fc-clock.c');
}

/**
 * The state file is machine-wide, not per checkout: namespaces and the address
 * range are machine-wide too, so `fencecheck down` must find a cluster started
 * from any directory. FENCECHECK_STATE_FILE overrides it.
 */
export function defaultStateFile(slot = 0): string {
  const override = process.env['FENCECHECK_STATE_FILE'];
  // Without root only the containers provider can run (a user in the docker group), and /run is root's.
  const uid = process.getuid?.() ?? 0;
  const base = override ? override : uid === 0 ? '/run/fencecheck/cluster.json' : join(tmpdir(), `fencecheck-${uid}`, 'cluster.json');
  return slotStateFile(base, slot);
}

/** Slot s's state file beside slot 0's: `cluster.json` → `cluster-<s>.json` (slot 0 keeps the name every version used). */
export function slotStateFile(base: string, slot: number): string {
  if (slot === 0) return base;
  return /\.json$/.test(base) ? base.replace(/\.json$/, `-${slot}.json`) : `${base}-${slot}`;
}

/** `results/cluster-<UTC timestamp>` under the project root, with `-2`, `-3`... if that second is taken. */
export function defaultRunDir(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const base = join(projectRoot(), 'results', `cluster-${stamp}`);
  let dir = base;
  for (let n = 2; existsSync(dir); n++) dir = `${base}-${n}`;
  return dir;
}

/**
 * A compiled entry point for a helper that runs as its own process (the delay
 * proxy inside a namespace): always the build in dist/src (under vitest the
 * sources are TypeScript).
 */
export function compiledEntry(relativeFromSrc: string): string {
  // Not relative to this file: bundled (dist/bundle/), this code no longer sits in dist/runtime/hosts/.
  return join(projectRoot(), 'dist', 'src', relativeFromSrc);
}

/**
 * Where the data of servers that run as another user (PostgreSQL, as
 * `postgres`) goes: under a temp dir every user can traverse, because the
 * checkout may sit in a folder only root can enter (a CI runner's home). One
 * folder per run, named from the run dir, under `base`: the system temp dir
 * (the containers provider: the daemon mounts the same path), or
 * fastDataBase() (the namespaces provider).
 */
export function sharedDataDir(runDir: string, base: string = tmpdir()): string {
  return join(base, `fencecheck-data-${createHash('sha1').update(resolve(runDir)).digest('hex').slice(0, 12)}`);
}

/** Every place a run's shared data dir may be (what reclaim may remove, whichever provider made it). */
export function sharedDataDirs(runDir: string): string[] {
  return [...new Set([sharedDataDir(runDir), sharedDataDir(runDir, fastDataBase())])];
}

/** tmpfs's magic number in statfs's `type` (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994;
/** Less room than this (a container's 64 MB /dev/shm) and the data stays on disk: PostgreSQL's data dir alone is 40 MB. */
const FAST_BASE_MIN_FREE = 1024 ** 3;
let fastBase: string | undefined;

/**
 * /dev/shm when it is a tmpfs with room to spare, else the system temp dir. PostgreSQL's data on this machine's
 * disk (ext4 on a VM) made every cluster start copy 40 MB through the journal: 0.65-0.94 s of system time for
 * initdb's 992 files, against 0.06 s into tmpfs. A process kill (kill -9, SIGSTOP) keeps a tmpfs's files as it
 * keeps a disk's page cache, so no fault of fencecheck's changes meaning.
 */
export function fastDataBase(): string {
  if (fastBase !== undefined) return fastBase;
  fastBase = tmpdir();
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= FAST_BASE_MIN_FREE) fastBase = '/dev/shm';
  } catch {
    // No /dev/shm: the temp dir.
  }
  return fastBase;
}

/** Where a provider's clusters keep the shared data dirs (its ProviderFacts.sharedData). */
export function providerDataBase(provider: ProviderName | undefined): string {
  return providerFacts(provider).sharedData === 'fast' ? fastDataBase() : tmpdir();
}

/** A node's data dir: `<runDir>/data/<node>`, or under sharedDataDir for servers that do not run as root (their ServerSystem's runsAs: PostgreSQL refuses root, and so does PgBouncer). */
export function nodeDataDir(runDir: string, node: { name: string; backend: BackendName }, base: string = tmpdir()): string {
  return serverSystem(node.backend).runsAs !== undefined ? join(sharedDataDir(runDir, base), node.name) : join(runDir, 'data', node.name);
}

/** The Go reference client (clients/go/etcd-mutex), built by `setup --go` next to its source (ignored by git). */
export function goClientPath(): string {
  return join(projectRoot(), 'clients', 'go', 'etcd-mutex', 'etcd-mutex');
}
