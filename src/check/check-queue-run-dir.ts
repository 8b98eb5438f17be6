/**
 * Re-check a queue run's directory (`fencecheck check RUN_DIR` on a run of
 * `--workload queue`): its history.jsonl through the same confined, strict
 * reader as a lock run's (a cut last line tolerated), total-queue again, the
 * evidence and the outcome from the plan's fault windows, and results.json
 * rewritten through the run store. Protocol violations happened on the
 * programs' stdout and are not in the history: the run's own summary of them
 * is carried from its results.json, and the output says so.
 */
import type { HistoryWarning } from '../../core/history/history-warning.js';
import type { History } from '../../core/history/op.js';
import type { StoredQueueTest } from '../../core/queue/queue-run-files.js';
import { queueResults, type QueueResults } from '../../core/queue/queue-outcome.js';
import { RunStore } from '../../runtime/store/run-store.js';
import type { QueueRunFacts } from '../../runtime/store/read-run-files.js';
import { readRunHistory } from '../history/read-run-history.js';
import { readPreviousResults } from './check-run-dir.js';

export interface QueueRunCheck {
  test: StoredQueueTest;
  results: QueueResults;
  /** The protocol violations' summary carried from the run's results.json, when it had one. */
  carried: string | undefined;
}

export function checkQueueRunDir(dir: string, run: QueueRunFacts, onWarning?: (w: HistoryWarning) => void): QueueRunCheck {
  const judged = judgeQueueRunDir(dir, run, onWarning);
  RunStore.open(dir).writeResults(judged.results);
  return { test: judged.test, results: judged.results, carried: judged.carried };
}

/** The run judged from its history, nothing written (the report shows it; check writes it). */
export function judgeQueueRunDir(dir: string, run: QueueRunFacts, onWarning?: (w: HistoryWarning) => void): QueueRunCheck & { history: History } {
  const history = readRunHistory(dir, onWarning);
  const previous = readPreviousResults(RunStore.open(dir));
  const carried = previous?.checkers.find((c) => c.checker === 'queue-protocol')?.summary;
  const results = queueResults(history, run.plannedWindows, previous?.durationMs ?? null, [], carried);
  return { test: run.test, results, carried, history };
}
