/**
 * Shrunk reproductions for docs/libraries.md: `fencecheck shrink` (a child, on
 * the real cluster) of the first invalid run of a part's first N unsafe cells,
 * with few re-runs so a part stays one short hold of the cluster queue; and
 * reading back what the shrinks found (their shrink.json), for the document.
 * Each shrink lives in DIR/<part>/shrinks/<n>/ beside a cell.json naming its
 * cell and how long it took.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompareReport } from '../compare/compare-report.js';
import type { LibrariesShrink } from '../compare/render-libraries-md.js';
import { describeShrunk, type ShrinkPlan } from '../shrink/delta-debug.js';
import { formatRate } from '../shrink/reproduce-rule.js';

/** Few re-runs: a candidate is kept when it fails in both (the document says so). */
export const SHRINK_ARGS = ['--runs', '2', '--min-fails', '2', '--max-candidates', '3'] as const;

/** The shrink commands of a part's first `n` unsafe cells (their first invalid run), each with its output directory. */
export function shrinkTargets(partDir: string, n: number): { cell: string; dir: string; args: string[] }[] {
  const report = JSON.parse(readFileSync(join(partDir, 'compare.json'), 'utf8')) as CompareReport;
  const unsafe = report.cells.filter((c) => c.outcome === 'unsafe').slice(0, n);
  return unsafe.flatMap((c, i) => {
    const run = c.runs.find((r) => r.status === 'invalid' && r.runDir !== null);
    const dir = join(partDir, 'shrinks', String(i + 1));
    return run === undefined ? [] : [{ cell: c.id, dir, args: ['shrink', join(partDir, run.runDir!), ...SHRINK_ARGS, '--results', dir] }];
  });
}

/** A shrink done (its shrink.json beside), or one that could not shrink, with why (`notShrunk`): either way an answer, not retried on resume. */
export function recordShrink(dir: string, cell: string, durationMs: number, notShrunk?: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cell.json'), `${JSON.stringify({ cell, durationMs, ...(notShrunk === undefined ? {} : { notShrunk }) })}\n`);
}

/** Why a shrink that exited 2 did not shrink (docs/hunt.md, "Shrinking": the original did not fail often enough). */
export const NOT_REPRODUCED = `not shrunk: its invalid run did not fail again in enough of its re-runs (${SHRINK_ARGS[3]} of ${SHRINK_ARGS[1]} needed), so no smaller plan could be confirmed; its replay above is the run as it failed`;

/** What the part's shrinks found: for each, its cell, summary line and replay command (the newest shrink of each). */
export function readShrinks(partDir: string): LibrariesShrink[] {
  const root = join(partDir, 'shrinks');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((n) => {
    const dir = join(root, n);
    const cellFile = join(dir, 'cell.json');
    const stamps = existsSync(join(dir, 'shrink')) ? readdirSync(join(dir, 'shrink')).sort() : [];
    const file = stamps
      .map((s) => join(dir, 'shrink', s, 'shrink.json'))
      .filter(existsSync)
      .at(-1);
    if (!existsSync(cellFile)) return [];
    const { cell, durationMs, notShrunk } = JSON.parse(readFileSync(cellFile, 'utf8')) as { cell: string; durationMs: number; notShrunk?: string };
    if (notShrunk !== undefined) return [{ cell, line: notShrunk, durationMs }];
    return file === undefined ? [] : [{ cell, ...readShrunk(file), durationMs }];
  });
}

/** A shrink.json as the document quotes it: its summary line (`shrunk to …; reproduced k/K (95% CI a–b%)`) and replay command. */
export function readShrunk(file: string): { line: string; replay: string } {
  const s = JSON.parse(readFileSync(file, 'utf8')) as { shrunk: ShrinkPlan; reproduced: { fails: number; of: number }; replay: string };
  return { line: `shrunk to ${describeShrunk(s.shrunk)}; reproduced ${formatRate(s.reproduced)}`, replay: s.replay };
}
