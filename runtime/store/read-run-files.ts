/**
 * Reading test.json and results.json from a run directory: the file I/O
 * around the formats' pure parsers (core/run-files/), so core reads no files.
 */
import { join } from 'node:path';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { parseResultsJson, RESULTS_FILE, type StoredResults } from '../../core/run-files/results-json.js';
import { parseTestJson, TEST_FILE, type StoredTest } from '../../core/run-files/test-json.js';
import { parsePlanJson, PLAN_FILE } from '../../core/run-files/plan-json.js';
import type { RunPlan } from '../../core/plan/run-plan.js';
import { BoundedReadError, readBoundedFile } from './read-bounded-file.js';

/**
 * A run file's text and path, or null when the run has none (ENOENT); any other failure names the file.
 * Regular files only, bounded (read-bounded-file.ts): a FIFO or /dev/zero in a run directory is a 254, not a hang.
 */
export function readRunFile(dir: string, name: string): { text: string; path: string } | null {
  const path = join(dir, name);
  try {
    return { text: readBoundedFile(path), path };
  } catch (err) {
    if (err instanceof BoundedReadError && err.code === 'ENOENT') return null;
    throw new RunFileError(path, err instanceof BoundedReadError ? err.why : `cannot be read: ${(err as Error).message}`, err);
  }
}

/** test.json of a run directory, checked; a missing file is null. */
export function readTestJson(dir: string): StoredTest | null {
  const file = readRunFile(dir, TEST_FILE);
  return file === null ? null : parseTestJson(file.text, file.path);
}

/** results.json of a run directory, checked; a missing file is null (the run did not finish). */
export function readResultsJson(dir: string): StoredResults | null {
  const file = readRunFile(dir, RESULTS_FILE);
  return file === null ? null : parseResultsJson(file.text, file.path);
}

/** plan.json of a run directory, checked; a missing file (a run from before plans were stored) is null. */
export function readPlanJson(dir: string): RunPlan | null {
  const file = readRunFile(dir, PLAN_FILE);
  return file === null ? null : parsePlanJson(file.text, file.path);
}
