/**
 * Teardown always runs, whatever the moment: on SIGINT, SIGTERM and SIGHUP the
 * cluster is torn down and the signal is then raised again, so it takes its
 * default course (the process ends with the usual 128+n status); at 'exit'
 * before a teardown has finished, the synchronous fallback kills and deletes
 * what is left.
 *
 * Others listening too (execa's signal-exit while a helper command runs) get
 * the re-raised signal and may handle it their way.
 *
 * The hooks stay installed until the teardown has FINISHED, not merely begun:
 * a second Ctrl-C (or a SIGTERM after a SIGINT) during teardown waits for the
 * same teardown instead of killing the process halfway through it, which used
 * to leave namespaces and an orphan client. SIGKILL cannot be caught: then the
 * state file lets the next command reclaim.
 */
import { runProcessEndCleanups } from '../hosts/process-end.js';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface TeardownHooks {
  /** Stop listening (after a teardown has finished, or when a cluster is left running on purpose). */
  uninstall(): void;
}

export function installTeardownHooks(teardown: () => Promise<unknown>, syncFallback: () => void): TeardownHooks {
  let finished = false;
  let running: Promise<void> | undefined;
  // The teardown is idempotent (Cluster.teardown returns the same promise), so this only remembers it.
  const run = (): Promise<void> =>
    (running ??= (async () => {
      try {
        await teardown();
      } catch (err) {
        process.stderr.write(`fencecheck: teardown failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    })());
  const onSignal = (signal: NodeJS.Signals): void => {
    const again = running !== undefined;
    process.stderr.write(
      again ? `fencecheck: ${signal}: teardown in progress, waiting for it to finish\n` : `fencecheck: ${signal}: tearing the cluster down\n`,
    );
    void run().then(() => {
      hooks.uninstall();
      // The re-raised signal ends the process without an 'exit' event: what the process removes at its end goes now.
      runProcessEndCleanups();
      // Re-raise so the process ends as the signal intended. Always, even when others listen: execa's
      // signal-exit listens while a helper command runs and re-raises only when it is the last listener
      // left, so checking for "no other listener" here ended an interrupted run with its error's 255.
      process.kill(process.pid, signal);
    });
  };
  const onExit = (): void => {
    // Also when a teardown had begun but the process is ending before it finished (a crash during it).
    if (!finished) syncFallback();
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('exit', onExit);
  const hooks: TeardownHooks = {
    uninstall() {
      finished = true;
      for (const s of SIGNALS) process.off(s, onSignal);
      process.off('exit', onExit);
    },
  };
  return hooks;
}
