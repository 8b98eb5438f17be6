/**
 * The hunt's I/O on a real cluster: each try through runLockTest, read back
 * from its run directory (results.json for the verdict and evidence, the
 * history for the near miss). Loaded only when a hunt runs. Every try runs
 * on one warm cluster (runtime/runner/warm-pool.ts): reset and
 * clean-checked between tries, started fresh when the check fails, torn down
 * by close() at the end; a try's test.json says which it was.
 */
import { join } from 'node:path';
import { runLockTest } from '../run/run-lock-test.js';
import { WarmPool } from '../../runtime/runner/warm-pool.js';
import { SHRUNK_FILE, writeRunReport } from '../report/write-run-report.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import type { HuntDeps } from './run-hunt.js';
import { readTryDir } from './read-try-dir.js';

export function realHuntDeps(log: (line: string) => void, stopped: () => boolean): HuntDeps {
  const pool = new WarmPool();
  return {
    runTry: async (options, hooks) => {
      const r = await runLockTest(options, { ...hooks, warm: pool });
      return { runDir: r.runDir, replay: r.replay };
    },
    readTry: async (runDir, options) => {
      const read = await readTryDir(runDir, options, log);
      if (read === null) throw new Error(`${runDir}: no results.json after the run`);
      return read;
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
