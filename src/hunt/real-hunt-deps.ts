/**
 * The hunt's I/O on a real cluster: each try through runLockTest, read back
 * from its run directory (results.json for the verdict and evidence, the
 * history for the near miss). Loaded only when a hunt runs. Every lane runs
 * its tries on one warm cluster of its own (runtime/runner/warm-pool.ts):
 * reset and clean-checked between tries, started fresh when the check fails,
 * torn down by close() at the end; a try's test.json says which it was.
 * One lane is slot 0, as every single-cluster command (a kept cluster is
 * adopted there); several lanes each take a free slot.
 */
import { runLockTest } from '../run/run-lock-test.js';
import { warmPoolsFor } from '../../runtime/runner/warm-pool.js';
import { writeRunReport } from '../report/write-run-report.js';
import { writeShrunkMark } from '../../runtime/store/write-run-files.js';
import type { HuntDeps } from './run-hunt.js';
import { readTryDir } from './read-try-dir.js';

export function realHuntDeps(log: (line: string) => void, stopped: () => boolean, lanes = 1): HuntDeps {
  const pools = warmPoolsFor(lanes);
  return {
    lanes,
    runTry: async (options, hooks, lane = 0) => {
      const pool = pools[lane];
      if (!pool) throw new RangeError(`Expected a lane below ${lanes}, got ${lane}`);
      // Each line says its cluster: the slot once the lane has one, its lane before.
      const where = (): string => (pool.slotInUse !== undefined ? `slot ${pool.slotInUse}` : `lane ${lane + 1}`);
      const slotted = lanes === 1 ? hooks : { ...hooks, log: (l: string) => hooks.log?.(`[${where()}] ${l}`) };
      const r = await runLockTest(options, { ...slotted, warm: pool });
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
    close: async () => void (await Promise.all(pools.map((p) => p.close(log)))),
    markShrunk: async (runDir, summary) => {
      writeShrunkMark(runDir, summary);
      await writeRunReport(runDir);
    },
  };
}
