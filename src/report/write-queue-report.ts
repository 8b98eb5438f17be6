/**
 * `writeQueueReport(dir, run)`: a queue run's report.html, from its history judged
 * again (src/check/check-queue-run-dir.ts: the confined strict reader, total-queue,
 * the outcome), never from results.json's verdict, written through the store's
 * atomic writer as a lock run's report is (never through a planted link).
 */
import { join } from 'node:path';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import type { StoredQueueTest } from '../../core/queue/queue-run-files.js';
import type { QueueResults } from '../../core/queue/queue-outcome.js';
import { RUN_FILES } from '../../core/run-files/run-files.js';
import { writeFileAtomic, type WriteOptions } from '../../runtime/store/atomic-write.js';
import { judgeQueueRunDir } from '../check/check-queue-run-dir.js';
import { queueTimeline } from './queue-timeline.js';
import { renderQueueReportHtml } from './render-queue-report-html.js';
import { GENERATOR } from './generator.js';

export function writeQueueReport(
  dir: string,
  run: { test: StoredQueueTest; plannedWindows: number },
  write: WriteOptions = {},
  onWarning?: (w: HistoryWarning) => void,
): { path: string; results: QueueResults } {
  const { test, results, history } = judgeQueueRunDir(dir, run, onWarning);
  const html = renderQueueReportHtml({ facts: test, results, timeline: queueTimeline(history), generator: GENERATOR });
  const path = join(dir, RUN_FILES.report);
  writeFileAtomic(path, html, write);
  return { path, results };
}
