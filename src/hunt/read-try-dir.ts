/**
 * A finished run's outcome and near miss, read from its directory (results.json
 * and history.jsonl) the way the hunt reads every try: the real hunt's tries,
 * and the run a shrink starts from.
 */
import { join } from 'node:path';
import type { RunOptions } from '../../core/plan/run-options.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { HISTORY_FILE } from '../../runtime/store/run-store.js';
import { readHistory } from '../history/read-history.js';
import { readTryOf, type DataVerdicts } from './hunt-verdict.js';
import type { Outcome } from '../../core/checkers/lock/evidence.js';
import type { NearMiss } from './near-miss.js';

/** Null when the run wrote no results.json. */
export async function readTryDir(
  runDir: string,
  options: RunOptions,
  log: (line: string) => void,
): Promise<{ outcome: Outcome; miss: NearMiss; data: DataVerdicts } | null> {
  const results = readResultsJson(runDir);
  if (results === null) return null;
  return readTryOf(await readHistory(join(runDir, HISTORY_FILE)), results, options, log);
}
