/**
 * `writeRunReport(runDir)`: write `report.html` into a run directory from its
 * history, test.json and results.json. The run pipeline calls it at the end of
 * every run, and `fencecheck report RUN_DIR` on demand; both get the path back.
 *
 * The file is written to a temporary name and renamed, so a reader (a browser
 * refreshing, `fencecheck serve`) never sees half a report.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FencecheckError } from '../../core/errors.js';
import { pageAssets } from './page-assets.js';
import { readRunDir, RUN_FILES, type RunDir } from './read-run-dir.js';
import { buildReportData } from './report-data.js';
import { renderReportHtml } from './render-report-html.js';

export const GENERATOR = 'fencecheck 0.1.0';

let writes = 0;

/** Returns the path of the report written; `read`: the run already read (readRunDir), not read again. */
export async function writeRunReport(runDir: string, read?: RunDir): Promise<string> {
  const [run, assets] = await Promise.all([read ?? readRunDir(runDir), pageAssets()]);
  const html = renderReportHtml(buildReportData(run, GENERATOR), assets);
  const path = join(runDir, RUN_FILES.report);
  // Unique per write, not per process: two writes of one report in one process (serve) must not share a temporary file.
  const temp = `${path}.${process.pid}.${++writes}.tmp`;
  try {
    await writeFile(temp, html, 'utf8');
    await rename(temp, path);
  } catch (err) {
    throw new FencecheckError('io', `cannot write ${path}: ${(err as Error).message}`, { cause: err, hint: 'Check that the run directory is writable and the disk is not full.' });
  }
  return path;
}
