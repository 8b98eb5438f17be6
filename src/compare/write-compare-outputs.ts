/**
 * Write a comparison's four outputs into its directory: compare.json (the
 * report itself), compare.html, junit.xml and summary.md. Each goes to a
 * temporary name first and is renamed, so a browser or a CI step reading
 * while a comparison is still going sees the previous matrix or the new one.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FencecheckError } from '../../core/errors.js';
import type { CompareReport } from './compare-report.js';
import { renderCompareHtml } from './render-compare-html.js';
import { renderJunit } from './render-junit.js';
import { renderSummaryMd } from './render-summary-md.js';

export const COMPARE_FILES = { json: 'compare.json', html: 'compare.html', junit: 'junit.xml', summary: 'summary.md' } as const;

/** Returns the path of compare.html. */
export function writeCompareOutputs(dir: string, report: CompareReport): string {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    [COMPARE_FILES.json, JSON.stringify(report, null, 2) + '\n'],
    [COMPARE_FILES.html, renderCompareHtml(report)],
    [COMPARE_FILES.junit, renderJunit(report)],
    [COMPARE_FILES.summary, renderSummaryMd(report)],
  ];
  for (const [name, text] of files) {
    const path = join(dir, name);
    const temp = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, text, 'utf8');
      renameSync(temp, path);
    } catch (err) {
      throw new FencecheckError('io', `cannot write ${path}: ${(err as Error).message}`, { cause: err, hint: 'Check that the compare directory is writable and the disk is not full.' });
    }
  }
  return join(dir, COMPARE_FILES.html);
}
