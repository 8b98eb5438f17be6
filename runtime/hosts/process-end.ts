/**
 * What a fencecheck process removes when it ends, however it ends but SIGKILL:
 * at `exit`; after a signal's teardown (teardown-hooks.ts re-raises the
 * signal, which ends the process without an `exit` event); and on a signal
 * when nothing else listens for it (a run between its teardown and its
 * checks: seen in chaos.test.ts, a SIGINT there left the template), where
 * the signal is raised again once the cleanups are done, so the process ends
 * as it would have. When others listen (a cluster's teardown hooks, a hunt's
 * stop after its tries), they decide how the process ends, and it ends
 * through one of the other two. Each cleanup is synchronous (an `exit`
 * listener cannot wait) and runs once.
 */
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const cleanups = new Set<() => void>();
let listening = false;

/** `cleanup` runs when this process ends. */
export function atProcessEnd(cleanup: () => void): void {
  cleanups.add(cleanup);
  if (!listening) {
    listening = true;
    process.once('exit', runProcessEndCleanups);
    for (const s of SIGNALS) process.on(s, onSignal);
  }
}

function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  runProcessEndCleanups();
  for (const s of SIGNALS) process.off(s, onSignal);
  process.kill(process.pid, signal);
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
