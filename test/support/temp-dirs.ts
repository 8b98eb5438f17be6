/**
 * madeTempDir: a fresh directory under the system's temp dir that is removed
 * when the test that made it finishes, and in any case after the file's tests
 * (a directory made during collection or in a beforeAll hook, where a hook
 * registered at that moment would never run), and when the worker process
 * ends or is interrupted (SIGINT, SIGTERM, SIGHUP): vitest runs no hook then,
 * nor for a file whose tests a filter skipped, and both left directories
 * behind (two chaos mount points, 2026-12-06). `beforeRemove` undoes what
 * sits on the directory first (a tmpfs mounted on it), synchronously, since
 * an exiting process runs no promise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

const made = new Map<string, (() => void) | undefined>();

function remove(dir: string): void {
  const before = made.get(dir);
  made.delete(dir);
  try {
    before?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function removeAll(): void {
  for (const dir of [...made.keys()]) remove(dir);
}

// Registered when a test file first imports this module, i.e. during its collection: it runs after the file.
afterAll(removeAll);
process.once('exit', removeAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => {
    removeAll();
    // Only ours: the signal's own ending, as if nobody had listened (another listener decides for itself).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });

export function madeTempDir(prefix: string, opts: { beforeRemove?: () => void } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.set(dir, opts.beforeRemove);
  try {
    onTestFinished(() => remove(dir));
  } catch {
    // Not inside a test: the file's afterAll above removes it.
  }
  return dir;
}
