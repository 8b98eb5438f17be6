/**
 * The hunt's I/O over the deterministic simulation (test/sim): each try's
 * plan run by the real interpreter on virtual time, judged by the real
 * checkers (runResults), read back as the real hunt reads a run directory.
 * The simulation proposes; only the real cluster decides (test/integration).
 */
import { runResults } from '../../core/analyse/run-results.js';
import type { HuntDeps } from '../../src/hunt/run-hunt.js';
import { readTryOf } from '../../src/hunt/hunt-verdict.js';
import { parseResultsJson, type StoredResults } from '../../core/run-files/results-json.js';
import type { History } from '../../core/history/op.js';
import { simulateRun } from '../sim/simulate-run.js';

export function simHuntDeps(opts: { stopAfter?: number } = {}): HuntDeps & { runs: number } {
  const done = new Map<string, { history: History; results: StoredResults }>();
  let clock = 0;
  const deps = {
    runs: 0,
    runTry: async (options: Parameters<HuntDeps['runTry']>[0]) => {
      const run = await simulateRun(options);
      deps.runs++;
      // Each try "takes" its time limit plus its recovery, as a real one would.
      clock += options.timeLimitS * 1000 + options.recoverMs;
      const runDir = `sim://${options.name}`;
      // Stored and read back as a real run's results.json is.
      done.set(runDir, {
        history: run.history,
        results: parseResultsJson(JSON.stringify(runResults(run.history, options, options.script?.length, null)), 'results.json'),
      });
      return { runDir, replay: `fencecheck run --seed ${options.seed}` };
    },
    readTry: async (runDir: string, options: Parameters<HuntDeps['readTry']>[1]) => {
      const { history, results } = done.get(runDir)!;
      return readTryOf(history, results, options, deps.log);
    },
    now: () => clock,
    log: (_line: string): void => undefined,
    stopped: () => opts.stopAfter !== undefined && deps.runs >= opts.stopAfter,
  };
  return deps;
}
