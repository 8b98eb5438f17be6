/**
 * The hunt's I/O on a real cluster: each try through runLockTest, read back
 * from its run directory (results.json for the verdict and evidence, the
 * history for the near miss). Loaded only when a hunt runs. Every try runs
 * on one warm cluster (workloads/runner/warm-pool.ts): reset and
 * clean-checked between tries, started fresh when the check fails, torn down
 * by close() at the end; a try's test.json says which it was.
 */
import { join } from 'node:path';
import { readHistory } from '../history/read-history.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { HISTORY_FILE } from '../../runtime/store/run-store.js';
import { runLockTest } from '../run/run-lock-test.js';
import { WarmPool } from '../../runtime/runner/warm-pool.js';
import type { HuntDeps } from './run-hunt.js';
import { nearMissOf } from './near-miss.js';

export function realHuntDeps(log: (line: string) => void, stopped: () => boolean): HuntDeps {
  const pool = new WarmPool();
  return {
    runTry: async (options, hooks) => {
      const r = await runLockTest(options, { ...hooks, warm: pool });
      return { runDir: r.runDir, replay: r.replay };
    },
    readTry: async (runDir, options) => {
      const results = readResultsJson(runDir);
      if (results === null) throw new Error(`${runDir}: no results.json after the run`);
      const history = await readHistory(join(runDir, HISTORY_FILE));
      return { outcome: results.outcome ?? 'untested', miss: nearMissOf(history, results, options.script?.length ?? 0, options.ttlMs) };
    },
    now: () => Date.now(),
    log,
    stopped,
    close: () => pool.close(log),
  };
}
