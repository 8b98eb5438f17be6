/**
 * `fencecheck report --index results/`: write `index.html` into a results
 * directory, listing every run with its verdict and a link to its report, and
 * the comparisons' and debates' pages. It writes nothing else unless asked:
 * with `writeReports` it first writes the reports that are missing or older
 * than their run's history or results, so that every link works from file://
 * too; without, a run with no report is listed with the command that makes one
 * (a directory found below DIR is not ours to write into unasked). A run is
 * read as every reader reads one (nothing linked out of its directory), so a
 * report written here never holds a file the index lists as not read.
 */
import { basename, join, resolve } from 'node:path';
import { FencecheckError } from '../../core/errors.js';
import { listResults, type RunSummary, type SummaryPage } from './list-runs.js';
import { renderIndexHtml } from './render-index-html.js';
import { writeRunReport } from './write-run-report.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';

export interface RunIndex {
  path: string;
  runs: RunSummary[];
  pages: SummaryPage[];
  /** Reports written because they were missing or stale. */
  written: string[];
  /** Runs whose report could not be written, with why. */
  failed: { path: string; error: string }[];
}

export async function writeRunIndex(resultsDir: string, opts: { writeReports?: boolean } = {}): Promise<RunIndex> {
  const { runs, pages } = await listResults(resultsDir);
  const written: string[] = [];
  const failed: { path: string; error: string }[] = [];
  for (const run of runs) {
    if (opts.writeReports !== true || !run.hasHistory || run.reportFresh) continue;
    try {
      written.push(await writeRunReport(run.dir, undefined, { within: resultsDir }));
      run.reportFresh = true;
      run.hasReport = true;
    } catch (err) {
      // One broken run must not cost the index: list it with the problem.
      if (!(err instanceof FencecheckError)) throw err;
      failed.push({ path: run.path, error: err.message });
      run.problem = err.message;
    }
  }
  const path = join(resultsDir, 'index.html');
  // The store's one writer: a random temporary name made exclusively, renamed over (a link at index.html is replaced).
  writeFileAtomic(path, renderIndexHtml(runs, basename(resolve(resultsDir)), { pages, reportsOnRequest: false }));
  return { path, runs, pages, written, failed };
}
