/**
 * Shared by the integration tests (real servers, root): reachability probes
 * from inside a namespace, Redis clients that fail fast, polling, and a
 * census of everything the project may have left on the machine.
 */
import { tmpdir } from 'node:os';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { acquireClusterLock } from '../../runtime/cluster/cluster-lock.js';
import { defaultStateFile, fastDataBase, projectRoot, sharedDataDirs } from '../../runtime/hosts/paths.js';
import { templateOwner } from '../../runtime/cluster/backends/process-pg-template.js';
import { pidsInNamespaces } from '../../runtime/cluster/namespace-pids.js';
import { isSameProcess, readProcessInfo } from '../../runtime/hosts/process-info.js';
import { parseSysvShm } from '../../runtime/cluster/shared-memory.js';
import { runCommand } from '../../runtime/hosts/run-command.js';
import type { ClusterState } from '../../runtime/hosts/state-file.js';
import { slotPrefix } from '../../core/cluster/slots.js';
import { projectNamespaces, projectRootLinks } from '../../runtime/cluster/topology.js';
import { WarmPool } from '../../runtime/runner/warm-pool.js';
import { TEST_SLOT } from './test-slot.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Can a TCP connection from inside `namespace` reach ip:port? (A handshake needs packets both ways.) */
export async function tcpReachable(namespace: string, ip: string, port: number, timeoutS = 0.6): Promise<boolean> {
  const r = await runCommand('ip', ['netns', 'exec', namespace, 'timeout', String(timeoutS), 'bash', '-c', `exec 3<>/dev/tcp/${ip}/${port}`], {
    reject: false,
  });
  return r.exitCode === 0;
}

/** A Redis client that never retries and never waits long: a fault must show, not be hidden. */
export function redisClient(host: string, port: number, timeoutMs = 2000): Redis {
  const client = new Redis({
    host,
    port,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
  client.on('error', () => undefined);
  return client;
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The System V shared-memory segments made by these processes (by creator pid), as `key/shmid`. */
export function shmSegmentsOf(creators: readonly number[]): string[] {
  let text = '';
  try {
    text = readFileSync('/proc/sysvipc/shm', 'utf8');
  } catch {
    return [];
  }
  return parseSysvShm(text)
    .filter((s) => creators.includes(s.cpid))
    .map((s) => `${s.key}/${s.shmid}`);
}

/** Live processes anywhere on the machine whose command line names `needles` (a server that escaped its namespace). */
function processesNaming(needles: readonly string[]): string[] {
  if (needles.length === 0) return [];
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)
    .flatMap((d) => {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        return [];
      }
      const info = readProcessInfo(Number(d));
      return info && info.state !== 'Z' && needles.some((n) => cmdline.includes(n)) ? [`${d} (${info.comm}): ${cmdline.slice(0, 120)}`] : [];
    });
}

export interface Census {
  namespaces: string[];
  links: string[];
  rootTables: string[];
  /** In project namespaces, recorded and still alive, or naming the run (or a lock client) anywhere on the machine. */
  processes: string[];
  /** The run's data dirs: `<runDir>/data/*` and PostgreSQL's under the system temp dir. */
  dataDirs: string[];
  /** Shared-memory segments made by the run's PostgreSQL servers (`shmCreators`). */
  shm: string[];
}

/**
 * Everything of the project in the file's slot (TEST_SLOT: another file may run in another slot meanwhile): it
 * must all be empty after a teardown. With `runDir`, also that run's data dirs and any process naming
 * it; with `shmCreators` (the pids of the run's PostgreSQL servers), the
 * shared-memory segments they made. (Other sessions on a shared machine may
 * run their own PostgreSQL: only the run's own things are counted.)
 */
export async function leftovers(recorded: ClusterState['processes'] = [], opts: { runDir?: string; shmCreators?: readonly number[] } = {}): Promise<Census> {
  const namespaces = projectNamespaces(TEST_SLOT);
  const links = projectRootLinks(TEST_SLOT);
  const tables = await runCommand('nft', ['list', 'tables'], { reject: false });
  const rootTables = tables.stdout.split('\n').filter((l) => l.includes(` ${slotPrefix(TEST_SLOT)}`));
  const inNamespaces = [...pidsInNamespaces(namespaces)].map(([pid, ns]) => `${pid} in ${ns}`);
  const alive = recorded.filter((p) => isSameProcess(p)).map((p) => `${p.pid} (${p.name}, ${p.comm})`);
  const run = opts.runDir;
  const escaped = run ? processesNaming([run, ...sharedDataDirs(run)]) : [];
  const dataDirs = run
    ? [
        ...(existsSync(join(run, 'data')) ? readdirSync(join(run, 'data')).map((d) => join(run, 'data', d)) : []),
        ...sharedDataDirs(run).filter((d) => existsSync(d)),
      ]
    : [];
  const shm = opts.shmCreators ? shmSegmentsOf(opts.shmCreators) : [];
  return { namespaces, links, rootTables, processes: [...new Set([...inNamespaces, ...alive, ...escaped])], dataDirs, shm };
}

/**
 * Start options for every test cluster: the file's slot (test-slot.ts), and, on a shared machine, another
 * fencecheck process may hold the slot's cluster lock for a while; wait for it (within vitest's 120 s hook
 * timeout) rather than fail.
 */
export const SHARED_MACHINE = { busyTimeoutMs: 90_000, slot: TEST_SLOT } as const;

/** A warm pool of the file's slot (WarmPool's own start and kept-cluster adoption). */
export function slotWarmPool(slot: number = TEST_SLOT): WarmPool {
  return new WarmPool(undefined, undefined, slot);
}

/**
 * A second slot for a file that runs a lane beside its own: two above it (the shared files hold slots 0 and 1;
 * the files that run alone come after them), so no two files running at once share one.
 */
export const NEIGHBOUR_SLOT = TEST_SLOT + 2;

/** Run `check` while holding the file's slot's cluster lock, so no other fencecheck process starts a cluster there meanwhile. */
export async function withClusterLock<T>(check: () => Promise<T>): Promise<T> {
  const lock = await acquireClusterLock(defaultStateFile(TEST_SLOT), SHARED_MACHINE.busyTimeoutMs, TEST_SLOT);
  try {
    return await check();
  } finally {
    await lock.release();
  }
}

/** The PostgreSQL template folders of process `pid` (runtime/cluster/backends/process-pg-template.ts), wherever they may be. */
export function pgTemplatesOf(pid: number): string[] {
  return [...new Set([fastDataBase(), tmpdir()])].flatMap((dir) =>
    readdirSync(dir)
      .filter((n) => templateOwner(n)?.pid === pid)
      .map((n) => join(dir, n)),
  );
}

export const NOTHING_LEFT: Census = { namespaces: [], links: [], rootTables: [], processes: [], dataDirs: [], shm: [] };

/** The built CLI; the tests that spawn harness processes need `npm run build` first (CI's `npm ci` runs it). */
export function cliPath(): string {
  const path = join(projectRoot(), 'dist', 'src', 'cli', 'main.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` before the integration tests`);
  return path;
}
