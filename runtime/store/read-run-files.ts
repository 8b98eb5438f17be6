/**
 * Reading test.json, plan.json and results.json from a run directory: the
 * file I/O around the formats' pure parsers (core/run-files/), so core reads
 * no files. Every reader of a run reads through here (or, for the history,
 * through src/check/verify-run.ts), so the rule of confined-path.ts holds for
 * all of them: nothing is read from outside the run directory.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expecter, isObject, parseJsonFile, RunFileError } from '../../core/run-files/run-file-error.js';
import { parseResultsJson, RESULTS_FILE, type StoredResults } from '../../core/run-files/results-json.js';
import { parseTestJson, TEST_FILE, type StoredTest } from '../../core/run-files/test-json.js';
import { parsePlanJson, PLAN_FILE } from '../../core/run-files/plan-json.js';
import type { RunPlan } from '../../core/plan/run-plan.js';
import { BoundedReadError, MAX_RUN_FILE_BYTES, readBoundedFile } from './read-bounded-file.js';
import { assertInside, LinkedOutsideError, realDir } from './confined-path.js';
import { RUN_FILES } from '../../core/run-files/run-files.js';
import { parseQueuePlanWindows, parseQueueRunOptions, parseQueueTestJson, type StoredQueueTest } from '../../core/queue/queue-run-files.js';
import type { QueueRunOptions } from '../../core/queue/queue-options.js';

/**
 * A run file's text and path, or null when the run has none (ENOENT); any other failure names the file.
 * Regular files only, bounded (read-bounded-file.ts): a FIFO or /dev/zero in a run directory is a 254, not a hang.
 * Only from inside the run directory (confined-path.ts): a file linked out of it is a LinkedOutsideError (254)
 * naming the link and its target, raised before the file is opened, so nothing of it is parsed or quoted.
 */
export function readRunFile(dir: string, name: string): { text: string; path: string } | null {
  const path = join(dir, name);
  try {
    return { text: readBoundedFile(path, MAX_RUN_FILE_BYTES, { root: realDir(dir) }), path };
  } catch (err) {
    if (err instanceof LinkedOutsideError) throw err;
    if (err instanceof BoundedReadError && err.code === 'ENOENT') return null;
    throw new RunFileError(path, err instanceof BoundedReadError ? err.why : `cannot be read: ${(err as Error).message}`, err);
  }
}

/** test.json of a run directory, checked; a missing file is null. */
export function readTestJson(dir: string): StoredTest | null {
  const file = readRunFile(dir, TEST_FILE);
  return file === null ? null : parseTestJson(file.text, file.path);
}

/** A queue run's directory as read back: its test.json and how many fault windows its plan held. */
export interface QueueRunFacts {
  test: StoredQueueTest;
  plannedWindows: number;
}

/** A queue run's directory read back; null when it is not a queue run's. */
export function readQueueRun(dir: string): QueueRunFacts | null {
  const file = readRunFile(dir, TEST_FILE);
  const test = file === null ? null : parseQueueTestJson(file.text, file.path);
  if (test === null) return null;
  const plan = readRunFile(dir, PLAN_FILE);
  if (plan === null) throw new RunFileError(join(dir, PLAN_FILE), "is missing: a queue run's outcome needs its fault windows");
  return { test, plannedWindows: parseQueuePlanWindows(plan.text, plan.path) };
}

/** A queue run's options as its test.json and plan.json hold them (its windows as given); null when it is not a queue run's. */
export function readQueueRunOptions(dir: string, resultsDir: string): QueueRunOptions | null {
  if (readQueueRun(dir) === null) return null;
  const test = readRunFile(dir, TEST_FILE)!;
  const plan = readRunFile(dir, PLAN_FILE)!;
  return parseQueueRunOptions(test.text, test.path, plan.text, plan.path, resultsDir);
}

/** readQueueRun for a path that may not be a directory at all (report RUN_DIR, the index): null when it is not one. */
export function queueRunIfDir(path: string): QueueRunFacts | null {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return null;
  }
  return isDir ? readQueueRun(path) : null;
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

/**
 * shrunk.json of a shrunk run (written by shrink into its final failing run): the summary line it opens with
 * (`shrunk to …; reproduced k/K (95% CI a–b%)`), so the report's story says how often the run fails; null without one.
 */
export function readShrunkMark(dir: string): { summary: string } | null {
  const file = readRunFile(dir, RUN_FILES.shrunk);
  if (file === null) return null;
  const json = parseJsonFile(file.text, file.path);
  const expect = expecter(file.path);
  expect(isObject(json), '', 'an object', json);
  const summary = (json as Record<string, unknown>)['summary'];
  expect(typeof summary === 'string', 'summary', "the shrink's summary line (a string)", summary);
  return { summary: summary as string };
}

/** The files a reader of a run reads (the report, the index, serve, check, compare): each must really be in the run directory. */
const READ_FILES = [TEST_FILE, PLAN_FILE, RESULTS_FILE, RUN_FILES.history] as const;

/**
 * Throws LinkedOutsideError for the first of a run's files that leads outside its directory, without reading any:
 * for a caller that says so before reading (the index lists the run's problem, serve answers 404 for its report).
 */
export function assertRunFilesInside(dir: string): void {
  const root = realDir(dir);
  for (const name of READ_FILES) assertInside(join(dir, name), root);
}
