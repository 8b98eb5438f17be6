/**
 * One cluster per slot at a time: a slot's namespaces and address range are
 * machine-wide (core/cluster/slots.ts). The lock is an abstract Unix socket
 * (`@fencecheck-cluster` for slot 0, `@fencecheck-cluster-<s>` for slot s):
 * only one process can listen on it, and the kernel releases it when that
 * process ends, even by SIGKILL, so a dead owner never leaves a stale lock.
 * Abstract sockets belong to a network namespace; every fencecheck control
 * process runs in the root one.
 *
 * `fencecheck up` holds it only while starting: the cluster it leaves running
 * belongs to nobody, and the next start (or `fencecheck down`) reclaims it.
 */
import net from 'node:net';
import { ClusterBusyError } from '../hosts/cluster-errors.js';
import { StateFile } from '../hosts/state-file.js';

/** Slot 0's name is the one every version before slots used: an older fencecheck and this one still exclude each other there. */
const lockName = (slot: number): string => (slot === 0 ? '\0fencecheck-cluster' : `\0fencecheck-cluster-${slot}`);

export interface ClusterLock {
  release(): Promise<void>;
}

function tryListen(slot: number): Promise<net.Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(undefined) : reject(err)));
    server.listen({ path: lockName(slot) }, () => {
      // Holding the lock must not keep the process alive.
      server.unref();
      resolve(server);
    });
  });
}

/** Take a slot's lock, waiting up to `waitMs` for another fencecheck process to finish. */
export async function acquireClusterLock(stateFile: string, waitMs = 0, slot = 0): Promise<ClusterLock> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const server = await tryListen(slot);
    if (server) return lockOf(server);
    if (Date.now() >= deadline) throw new ClusterBusyError(StateFile.read(stateFile)?.owner.pid, stateFile);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Take a slot's lock if it is free now, else undefined (the slot chooser's probe: no wait, no error). */
export async function tryClusterLock(slot: number): Promise<ClusterLock | undefined> {
  const server = await tryListen(slot);
  return server ? lockOf(server) : undefined;
}

function lockOf(server: net.Server): ClusterLock {
  let released: Promise<void> | undefined;
  return { release: () => (released ??= new Promise((r) => server.close(() => r()))) };
}

/** Whether a live fencecheck process holds a slot's lock now (it is running a cluster there). */
export async function clusterLockHeld(slot = 0): Promise<boolean> {
  const server = await tryListen(slot);
  if (!server) return true;
  await new Promise((r) => server.close(() => r(undefined)));
  return false;
}

/**
 * Start something that owns the lock once it is up (a cluster releases it at
 * its teardown): hold the lock while `start` runs, release it only if
 * starting fails. Both providers start their clusters this way.
 */
export async function startHoldingClusterLock<T>(stateFile: string, waitMs: number, start: (lock: ClusterLock) => Promise<T>, slot = 0): Promise<T> {
  const lock = await acquireClusterLock(stateFile, waitMs, slot);
  try {
    return await start(lock);
  } catch (err) {
    await lock.release();
    throw err;
  }
}
