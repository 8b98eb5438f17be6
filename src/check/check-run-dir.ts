/**
 * Re-check a run directory (`fencecheck check results/<test>/latest`): read
 * its test.json through the validating reader and history.jsonl (tolerating
 * a last line cut by an interrupted run), analyse the history as the run
 * does (verdicts, evidence, outcome: run-results.ts, through verify-run.ts),
 * and rewrite results.json atomically through the run store.
 */
import type { HistoryWarning } from '../../core/history/history-warning.js';
import type { ResultsJson, StoredResults } from '../../core/run-files/results-json.js';
import { RunStore } from '../../runtime/store/run-store.js';
import type { StoredTest } from '../../core/run-files/test-json.js';
import { readRunHistory } from '../history/read-run-history.js';
import { recomputeResults } from './verify-run.js';
import { join } from 'node:path';
import { TEST_FILE } from '../../core/run-files/test-json.js';

/** What a re-check read and wrote. */
export interface RunCheck {
  test: StoredTest;
  results: ResultsJson;
}

export async function checkRunDir(dir: string, onWarning?: (w: HistoryWarning) => void): Promise<RunCheck> {
  const store = RunStore.open(dir);
  const test = store.requireTest();
  const history = readRunHistory(dir, onWarning);
  const results = recomputeResults(history, test, readPreviousResults(store), join(dir, TEST_FILE));
  store.writeResults(results);
  return { test, results };
}

/** A results.json that cannot be read is about to be replaced: the re-check does not depend on it. */
export function readPreviousResults(store: RunStore): StoredResults | null {
  try {
    return store.readResults();
  } catch {
    return null;
  }
}
