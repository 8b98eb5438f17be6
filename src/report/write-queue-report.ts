/**
 * A queue run's report.html. `writeQueueReport(dir, run)` judges the run again from
 * its history (src/check/check-queue-run-dir.ts: the confined strict reader,
 * total-queue, the outcome), never from results.json's verdict; the run itself calls
 * `writeQueueReportHtml` with its own results (its protocol violations included,
 * which the history does not hold). Both write through the store's atomic writer as
 * a lock run's report is (never through a planted link).
 */
import type { History } from '../../core/history/op.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import type { QueueResults } from '../../core/queue/queue-outcome.js';
import type { WriteOptions } from '../../runtime/store/atomic-write.js';
import { writeReportHtml } from '../../runtime/store/write-run-files.js';
import type { QueueRunFacts } from '../../runtime/store/read-run-files.js';
import { judgeQueueRunDir } from '../check/check-queue-run-dir.js';
import { queueTimeline } from './queue-timeline.js';
import { renderQueueReportHtml, type QueueReportInput } from './render-queue-report-html.js';
import { GENERATOR } from './generator.js';

export function writeQueueReport(
  dir: string,
  run: QueueRunFacts,
  write: WriteOptions = {},
  onWarning?: (w: HistoryWarning) => void,
): { path: string; results: QueueResults } {
  const { test, results, history } = judgeQueueRunDir(dir, run, onWarning);
  return { path: writeQueueReportHtml(dir, test, results, history, write), results };
}

/** report.html of a queue run from what is given; its path. */
export function writeQueueReportHtml(dir: string, facts: QueueReportInput['facts'], results: QueueResults, history: History, write: WriteOptions = {}): string {
  return writeReportHtml(dir, renderQueueReportHtml({ facts, results, timeline: queueTimeline(history), generator: GENERATOR }), write);
}
