/**
 * Write the debate's outputs into its directory: debate.json (the report
 * itself), debate.html and debate.md, each through the store's atomic writer
 * (temp, fsync, rename, directory fsync), so a reader during a long
 * `scenario run --all` sees the last complete table, even after a crash.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import type { DebateReport } from './debate-report.js';
import { renderDebateHtml } from './render-debate-html.js';
import { renderDebateMd } from './render-debate-md.js';

export const DEBATE_FILES = { json: 'debate.json', html: 'debate.html', md: 'debate.md' } as const;

/** Returns the paths written. */
export function writeDebate(dir: string, report: DebateReport): { html: string; md: string; json: string } {
  mkdirSync(dir, { recursive: true });
  const paths = { json: join(dir, DEBATE_FILES.json), html: join(dir, DEBATE_FILES.html), md: join(dir, DEBATE_FILES.md) };
  const texts = { json: JSON.stringify(report, null, 2) + '\n', html: renderDebateHtml(report), md: renderDebateMd(report) };
  for (const key of ['json', 'html', 'md'] as const) writeFileAtomic(paths[key], texts[key]);
  return paths;
}
