/**
 * Re-check a run directory (`fencecheck check results/<test>/latest`): read
 * its test.json through the validating reader and history.jsonl (tolerating
 * a last line cut by an interrupted run), analyse the history as the run
 * does (verdicts, evidence, outcome: run-results.ts, through verify-run.ts),
 * and rewrite results.json atomically through the run store.
 */
import { join } from 'node:path';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { type ResultsJson } from '../../core/run-files/results-json.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { TEST_FILE, type StoredTest } from '../../core/run-files/test-json.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { readRunHistory, recomputeResults } from './verify-run.js';

export { isRunDir } from './is-run-dir.js';

/** What a re-check read and wrote. */
export interface RunCheck {
  test: StoredTest;
  results: ResultsJson;
}

export async function checkRunDir(dir: string, onWarning?: (w: HistoryWarning) => void): Promise<RunCheck> {
  const test = readTestJson(dir);
  if (test === null) throw new RunFileError(join(dir, TEST_FILE), 'is missing');
  const history = readRunHistory(dir, onWarning);
  const results = recomputeResults(history, test, readPreviousResults(dir));
  RunStore.open(dir).writeResults(results);
  return { test, results };
}

/** A results.json that cannot be read is about to be replaced: the re-check does not depend on it. */
function readPreviousResults(dir: string): ReturnType<typeof readResultsJson> {
  try {
    return readResultsJson(dir);
  } catch {
    return null;
  }
}
