/**
 * The run files written after the run by others than the run itself: the
 * report (report.html, by `report`, the index, serve, a queue run) and a
 * shrink's mark on its final failing run (shrunk.json: its report opens on
 * the story). Atomic, as every run file (atomic-write.ts); `inside`: the
 * results directory the run must really be in (the index, serve).
 */
import { join } from 'node:path';
import { RUN_FILES } from '../../core/run-files/run-files.js';
import { writeFileAtomic, type WriteOptions } from './atomic-write.js';

/** A shrunk run carries this file: its report opens on the story (read back by readShrunkMark). */
export const SHRUNK_FILE = RUN_FILES.shrunk;

/** Write a run's report.html; its path. */
export function writeReportHtml(dir: string, html: string, opts: WriteOptions = {}): string {
  const path = join(dir, RUN_FILES.report);
  writeFileAtomic(path, html, opts);
  return path;
}

/** Mark a run as a shrink's final failing one, with the shrink's summary. */
export function writeShrunkMark(dir: string, summary: unknown): void {
  writeFileAtomic(join(dir, SHRUNK_FILE), JSON.stringify(summary, null, 2) + '\n');
}
