/**
 * Load what a report shows from a run directory: the history (required),
 * test.json and results.json (each may be missing: a run still going, or one
 * that was killed before its checkers ran, still deserves a picture).
 *
 * The history is read tolerantly where a run's own accidents are concerned (a
 * last line cut by a kill) and strictly otherwise; tolerated problems become
 * warnings the page shows.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT, FencecheckError, UsageError } from '../errors.js';
import type { HistoryWarning } from '../history/history-warning.js';
import type { History } from '../history/op.js';
import { readHistory } from '../history/read-history.js';
import { parseResultsJson, type StoredResults } from '../store/results-json.js';
import { parseTestJson, type StoredTest } from '../store/test-json.js';

export const RUN_FILES = { test: 'test.json', history: 'history.jsonl', results: 'results.json', report: 'report.html' } as const;

export interface RunDir {
  dir: string;
  test: StoredTest | null;
  results: StoredResults | null;
  history: History;
  warnings: HistoryWarning[];
}

export async function readRunDir(dir: string): Promise<RunDir> {
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new UsageError(`Expected \`RUN_DIR\` to be a run directory, got \`${dir}\``, 'Pass a directory that `fencecheck run` wrote, e.g. results/<test>/latest.');
  }
  const historyPath = join(dir, RUN_FILES.history);
  if ((await stat(historyPath).catch(() => null)) === null) {
    throw new FencecheckError('run-dir', `${dir} has no ${RUN_FILES.history}`, {
      hint: 'A report draws a run\'s history; check that RUN_DIR is the run itself (results/<test>/<timestamp>), not its parent.',
      exitCode: EXIT.badInput,
    });
  }
  const warnings: HistoryWarning[] = [];
  const history = await readHistory(historyPath, { format: 'jsonl', tolerateTruncatedTail: true, onWarning: (w) => warnings.push(w) });
  const testText = await readOptional(join(dir, RUN_FILES.test));
  const resultsText = await readOptional(join(dir, RUN_FILES.results));
  return {
    dir,
    test: testText === null ? null : parseTestJson(testText, join(dir, RUN_FILES.test)),
    results: resultsText === null ? null : parseResultsJson(resultsText, join(dir, RUN_FILES.results)),
    history,
    warnings,
  };
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new FencecheckError('io', `cannot read ${path}: ${(err as Error).message}`, { cause: err, hint: 'Check the file\'s permissions.' });
  }
}
