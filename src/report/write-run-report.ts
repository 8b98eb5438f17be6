/**
 * `writeRunReport(runDir)`: write `report.html` into a run directory from its
 * history, test.json and results.json. The run pipeline calls it at the end of
 * every run, and `fencecheck report RUN_DIR` on demand; both get the path back.
 *
 * The file goes through the store's atomic writer (temp, fsync, rename,
 * directory fsync), so a reader (a browser refreshing, `fencecheck serve`)
 * never sees half a report, even after a crash, and a link at report.html's
 * name is replaced, never written through.
 */
import { writeReportHtml } from '../../runtime/store/write-run-files.js';
import { queueRunIfDir, readShrunkMark } from '../../runtime/store/read-run-files.js';
import { assertInside, realDir } from '../../runtime/store/confined-path.js';
import { pageAssets } from './page-assets.js';
import { readRunDir, type RunDir } from './read-run-dir.js';
import { buildReportData } from './report-data.js';
import { renderReportHtml } from './render-report-html.js';

import { GENERATOR } from './generator.js';

/**
 * Returns the path of the report written; `read`: the run already read (readRunDir), not read again.
 * `within`: the results directory the run was found in (the index, serve): the run is read and the report
 * written only if the run directory really is in it.
 */
export async function writeRunReport(runDir: string, read?: RunDir, opts: { within?: string } = {}): Promise<string> {
  // A queue run's directory (test.json's workload queue) gets the queue's report; a lock run's is read below.
  if (read === undefined) {
    if (opts.within !== undefined) assertInside(runDir, realDir(opts.within), 'the results directory');
    const queue = queueRunIfDir(runDir);
    if (queue !== null) {
      const { writeQueueReport } = await import('./write-queue-report.js');
      return writeQueueReport(runDir, queue, opts.within === undefined ? {} : { inside: opts.within }).path;
    }
  }
  const [run, assets] = await Promise.all([read ?? readRunDir(runDir, opts.within === undefined ? {} : { within: opts.within }), pageAssets()]);
  const html = renderReportHtml(buildReportData(run, GENERATOR, undefined, storyOf(runDir)), assets);
  // The temporary name is random and made exclusively (atomic-write.ts), so two writes of one report in one process
  // (serve) never share one, and a link planted in the run directory is never written through.
  return writeReportHtml(runDir, html, opts.within === undefined ? {} : { inside: opts.within });
}

/** A shrunk run's report opens on its story, which begins with the shrink's summary and its reproduction rate. */
function storyOf(runDir: string): { story?: boolean; shrunkSummary?: string } {
  const mark = readShrunkMark(runDir);
  return mark === null ? {} : { story: true, shrunkSummary: mark.summary };
}
