/**
 * Write a comparison's four outputs into its directory: compare.json (the
 * report itself), compare.html, junit.xml and summary.md. Each goes to a
 * temporary name first, fsynced and renamed (the store's atomic writer), so
 * a browser or a CI step reading while a comparison is still going sees the
 * previous matrix or the new one, even after a crash.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
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
  for (const [name, text] of files) writeFileAtomic(join(dir, name), text);
  return join(dir, COMPARE_FILES.html);
}
