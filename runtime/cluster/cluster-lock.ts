/**
 * One cluster per machine at a time: the namespaces and the address range are
 * machine-wide. The lock is an abstract Unix socket (`@fencecheck-cluster`):
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

const LOCK_NAME = '\0fencecheck-cluster';

export interface ClusterLock {
  release(): Promise<void>;
}

function tryListen(): Promise<net.Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(undefined) : reject(err)));
    server.listen({ path: LOCK_NAME }, () => {
      // Holding the lock must not keep the process alive.
      server.unref();
      resolve(server);
    });
  });
}

/** Take the lock, waiting up to `waitMs` for another fencecheck process to finish. */
export async function acquireClusterLock(stateFile: string, waitMs = 0): Promise<ClusterLock> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const server = await tryListen();
    if (server) {
      let released: Promise<void> | undefined;
      return { release: () => (released ??= new Promise((r) => server.close(() => r()))) };
    }
    if (Date.now() >= deadline) throw new ClusterBusyError(StateFile.read(stateFile)?.owner.pid, stateFile);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Whether a live fencecheck process holds the lock now (it is running a cluster). */
export async function clusterLockHeld(): Promise<boolean> {
  const server = await tryListen();
  if (!server) return true;
  await new Promise((r) => server.close(() => r(undefined)));
  return false;
}

/**
 * Start something that owns the lock once it is up (a cluster releases it at
 * its teardown): hold the lock while `start` runs, release it only if
 * starting fails. Both providers start their clusters this way.
 */
export async function startHoldingClusterLock<T>(stateFile: string, waitMs: number, start: (lock: ClusterLock) => Promise<T>): Promise<T> {
  const lock = await acquireClusterLock(stateFile, waitMs);
  try {
    return await start(lock);
  } catch (err) {
    await lock.release();
    throw err;
  }
}
