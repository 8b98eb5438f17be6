/**
 * What a fencecheck process removes when it ends, however it ends but SIGKILL:
 * at `exit`, and after a signal's teardown (teardown-hooks.ts re-raises the
 * signal, which ends the process without an `exit` event). Each cleanup is
 * synchronous (an `exit` listener cannot wait) and runs once.
 */
const cleanups = new Set<() => void>();
let listening = false;

/** `cleanup` runs when this process ends. */
export function atProcessEnd(cleanup: () => void): void {
  cleanups.add(cleanup);
  if (!listening) {
    listening = true;
    process.once('exit', runProcessEndCleanups);
  }
}

/** Every registered cleanup, once each; one that throws does not stop the others. */
export function runProcessEndCleanups(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch (err) {
      process.stderr.write(`fencecheck: cleanup at exit failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}
