/**
 * Teardown always runs: on SIGINT, SIGTERM and SIGHUP the cluster is torn
 * down and the signal then takes its default course (the process ends with
 * the usual 128+n status) unless someone else also listens for it; at 'exit'
 * without a teardown, the synchronous fallback kills and deletes what is left.
 * A SIGKILL cannot be caught: then the state file lets the next command reclaim.
 */
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface TeardownHooks {
  uninstall(): void;
}

export function installTeardownHooks(teardown: () => Promise<unknown>, syncFallback: () => void): TeardownHooks {
  let done = false;
  const run = async (): Promise<void> => {
    if (done) return;
    done = true;
    try {
      await teardown();
    } catch (err) {
      process.stderr.write(`fencecheck: teardown failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    void run().then(() => {
      hooks.uninstall();
      // Re-raise so the process ends as the signal intended; leave it to others if they listen too.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  };
  const onExit = (): void => {
    if (!done) syncFallback();
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('exit', onExit);
  const hooks: TeardownHooks = {
    uninstall() {
      done = true;
      for (const s of SIGNALS) process.off(s, onSignal);
      process.off('exit', onExit);
    },
  };
  return hooks;
}
