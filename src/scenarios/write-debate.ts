/**
 * Write the debate's outputs into its directory: debate.json (the report
 * itself), debate.html and debate.md, each under a temporary name renamed
 * into place, so a reader during a long `scenario run --all` sees the last
 * complete table.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FencecheckError } from '../../core/errors.js';
import type { DebateReport } from './debate-report.js';
import { renderDebateHtml } from './render-debate-html.js';
import { renderDebateMd } from './render-debate-md.js';

export const DEBATE_FILES = { json: 'debate.json', html: 'debate.html', md: 'debate.md' } as const;

/** Returns the paths written. */
export function writeDebate(dir: string, report: DebateReport): { html: string; md: string; json: string } {
  mkdirSync(dir, { recursive: true });
  const paths = { json: join(dir, DEBATE_FILES.json), html: join(dir, DEBATE_FILES.html), md: join(dir, DEBATE_FILES.md) };
  const texts = { json: JSON.stringify(report, null, 2) + '\n', html: renderDebateHtml(report), md: renderDebateMd(report) };
  for (const key of ['json', 'html', 'md'] as const) {
    const temp = `${paths[key]}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, texts[key], 'utf8');
      renameSync(temp, paths[key]);
    } catch (err) {
      throw new FencecheckError('io', `cannot write ${paths[key]}: ${(err as Error).message}`, { cause: err, hint: 'Check that the results directory is writable and the disk is not full.' });
    }
  }
  return paths;
}
