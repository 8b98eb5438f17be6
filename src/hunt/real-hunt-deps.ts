/**
 * The hunt's I/O on a real cluster: each try through runLockTest, read back
 * from its run directory (results.json for the verdict and evidence, the
 * history for the near miss). Loaded only when a hunt runs. Every try runs
 * on one warm cluster (runtime/runner/warm-pool.ts): reset and
 * clean-checked between tries, started fresh when the check fails, torn down
 * by close() at the end; a try's test.json says which it was.
 */
import { join } from 'node:path';
import { readHistory } from '../history/read-history.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { HISTORY_FILE } from '../../runtime/store/run-store.js';
import { runLockTest } from '../run/run-lock-test.js';
import { WarmPool } from '../../runtime/runner/warm-pool.js';
import { SHRUNK_FILE, writeRunReport } from '../report/write-run-report.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import type { HuntDeps } from './run-hunt.js';
import { readTryOf } from './hunt-verdict.js';

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
      return readTryOf(history, results, options, log);
    },
    now: () => Date.now(),
    log,
    stopped,
    close: () => pool.close(log),
    markShrunk: async (runDir, summary) => {
      writeFileAtomic(join(runDir, SHRUNK_FILE), JSON.stringify(summary, null, 2) + '\n');
      await writeRunReport(runDir);
    },
  };
}
