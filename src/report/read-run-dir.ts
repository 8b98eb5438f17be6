/**
 * Load what a report shows from a run directory: the history (required),
 * test.json and results.json (each may be missing: a run still going, or one
 * that was killed before its checkers ran, still deserves a picture).
 *
 * The history is read tolerantly where a run's own accidents are concerned (a
 * last line cut by a kill) and strictly otherwise; tolerated problems become
 * warnings the page shows. Every file is read as a regular file with a size
 * bound (a FIFO or /dev/zero is refused, never waited on), only from inside
 * the run directory (a file linked out of it is refused before it is opened:
 * runtime/store/confined-path.ts), and the verdict is
 * recomputed from the history: a results.json that disagrees is refused
 * (verify-run.ts), so a report never shows an edited verdict.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT, FencecheckError, UsageError } from '../../core/errors.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import type { History } from '../../core/history/op.js';
import type { StoredResults } from '../../core/run-files/results-json.js';
import { RunStore } from '../../runtime/store/run-store.js';
import type { StoredTest } from '../../core/run-files/test-json.js';
import { readRunHistory } from '../history/read-run-history.js';
import { verifiedResults } from '../check/verify-run.js';
import { RUN_FILES } from '../../core/run-files/run-files.js';
import { assertInside, realDir } from '../../runtime/store/confined-path.js';

export { RUN_FILES } from '../../core/run-files/run-files.js';

export interface RunDir {
  dir: string;
  test: StoredTest | null;
  /** Recomputed from the history, and equal to results.json where a verdict is concerned (verify-run.ts). */
  results: StoredResults | null;
  history: History;
  warnings: HistoryWarning[];
}

/**
 * `ownRun`: the caller made this run moments ago (a scenario reading the run it just ran, whose results.json
 * runLockTest wrote from this very history): the file is taken as written, not recomputed. Every reader of a
 * directory someone else may have touched (report, serve, the index, compare) leaves it false.
 * `within`: the results directory the run was found in (the index, serve): the run directory must really be in it.
 */
export async function readRunDir(dir: string, opts: { ownRun?: boolean; within?: string } = {}): Promise<RunDir> {
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new UsageError(
      `Expected \`RUN_DIR\` to be a run directory, got \`${dir}\``,
      'Pass a directory that `fencecheck run` wrote, e.g. results/<test>/latest.',
    );
  }
  if (opts.within !== undefined) assertInside(dir, realDir(opts.within), 'the results directory');
  const historyPath = join(dir, RUN_FILES.history);
  if ((await stat(historyPath).catch(() => null)) === null) {
    throw new FencecheckError('run-dir', `${dir} has no ${RUN_FILES.history}`, {
      hint: "A report draws a run's history; check that RUN_DIR is the run itself (results/<test>/<timestamp>), not its parent.",
      exitCode: EXIT.badInput,
    });
  }
  const warnings: HistoryWarning[] = [];
  const history = readRunHistory(dir, (w) => warnings.push(w));
  const store = RunStore.open(dir);
  const test = store.readTest();
  const results = opts.ownRun ? store.readResults() : (verifiedResults(dir, test, () => history)?.results ?? null);
  return { dir, test, results, history, warnings };
}
