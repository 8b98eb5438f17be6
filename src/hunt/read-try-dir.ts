/**
 * A finished run's outcome and near miss, read from its directory (results.json
 * and history.jsonl) the way the hunt reads every try: the real hunt's tries,
 * and the run a shrink starts from.
 */
import type { RunOptions } from '../../core/plan/run-options.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { readRunHistory } from '../history/read-run-history.js';
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
  // Strict, as the hunt always read its tries: a try it ran to its end has no line cut by a kill.
  return readTryOf(readRunHistory(runDir, undefined, { strict: true }), results, options, log);
}
