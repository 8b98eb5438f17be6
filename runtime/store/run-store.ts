/**
 * RunStore: the one owner of a run directory (Jepsen's store.clj).
 *
 *   results/<name>/<timestamp>/     made by `RunStore.create`, never reused
 *     test.json                     writeTest (then markInterrupted on a signal)
 *     plan.json                     writePlan: everything the run will do
 *     history.jsonl                 appended by the recorder (historyPath)
 *     results.json                  writeResults
 *     logs/                         every server's and client's log
 *   results/<name>/latest           → the newest run, replaced atomically
 *
 * `RunStore.open(dir)` is the same owner for a directory that exists: its
 * readers (readTest, readPlan, readResults) check each file as read, and
 * its writers replace one file at a time (`check RUN_DIR` rewrites
 * results.json). The file names are run-files.ts's.
 *
 * Every file is written whole or not at all (writeFileAtomic), so a reader
 * never meets half a test.json, and never through a link planted in the
 * directory (pinned-dir.ts); the readers beside the types (test-json.ts,
 * results-json.ts) name the field a bad file gets wrong, and read nothing
 * linked out of the run directory (confined-path.ts).
 */
import { existsSync, mkdirSync, readlinkSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { replaceLink, writeFileAtomic } from './atomic-write.js';
import { RUN_FILES } from '../../core/run-files/run-files.js';
import { ensureWritableDir } from './writable-dir.js';
import { readResultsJson } from './read-run-files.js';
import { RESULTS_FILE, type ResultsJson, type StoredResults } from '../../core/run-files/results-json.js';
import { RunFailedError } from './run-failed-error.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { readTestJson } from './read-run-files.js';
import { TEST_FILE, type StoredTest, type TestJson } from '../../core/run-files/test-json.js';
import { PLAN_FILE, planText } from '../../core/run-files/plan-json.js';
import { readPlanJson } from './read-run-files.js';
import type { RunPlan } from '../../core/plan/run-plan.js';

export const HISTORY_FILE = RUN_FILES.history;
export const LOGS_DIR = RUN_FILES.logs;
export const LATEST_LINK = RUN_FILES.latest;

export class RunStore {
  private test: TestJson | undefined;
  private interrupted: TestJson['interrupted'];

  private constructor(
    readonly dir: string,
    /** What `latest` pointed at before this run (restored when the run is discarded). */
    private readonly previousLatest: string | undefined = undefined,
    /** This run made `<results>/<name>/` itself: a discarded run removes it again when nothing else is in it. */
    private readonly madeParent = false,
  ) {}

  /**
   * A new run directory `<resultsDir>/<name>/<timestamp>` (UTC, to the
   * second), with `-2`, `-3`, ... when another run started in the same second:
   * mkdir without `recursive` fails on an existing directory, so two runs
   * (even two processes) never share one. `latest` then points at it.
   */
  static create(resultsDir: string, name: string, now: Date): RunStore {
    const parent = resolve(resultsDir, name);
    const madeParent = !existsSync(parent);
    ensureWritableDir(parent, 'the results directory');
    const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    for (let n = 1; ; n++) {
      const dir = join(parent, n === 1 ? stamp : `${stamp}-${n}`);
      try {
        mkdirSync(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw new FencecheckError('run-dir', `cannot make the run directory ${dir}: ${(err as Error).message}`, {
          hint: 'Check that the results directory (run: --results; compare and scenario run: --out) is writable and its disk has space.',
          exitCode: EXIT.badInput,
          cause: err,
        });
      }
      mkdirSync(join(dir, LOGS_DIR));
      const previous = currentLatest(parent);
      linkLatest(parent, dir);
      return new RunStore(dir, previous, madeParent);
    }
  }

  /**
   * A run refused before it began (another cluster is running): remove its
   * directory and point `latest` back where it was, so a refused run leaves
   * nothing behind.
   */
  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
    const parent = dirname(this.dir);
    if (this.previousLatest === undefined) rmSync(join(parent, LATEST_LINK), { force: true });
    else linkLatest(parent, join(parent, this.previousLatest));
    if (this.madeParent) removeIfEmpty(parent);
  }

  /** A run directory that exists already (`fencecheck check RUN_DIR` reads it and rewrites its results.json). */
  static open(dir: string): RunStore {
    // As given, not resolved: a reader's error names the path the user gave.
    return new RunStore(dir);
  }

  /** test.json, checked; null when the directory has none. */
  readTest(): StoredTest | null {
    return readTestJson(this.dir);
  }

  /** test.json, checked; a directory without one is a RunFileError (254). */
  requireTest(): StoredTest {
    const test = this.readTest();
    if (test === null) throw new RunFileError(join(this.dir, TEST_FILE), 'is missing');
    return test;
  }

  /** plan.json, checked; null for a run from before plans were stored. */
  readPlan(): RunPlan | null {
    return readPlanJson(this.dir);
  }

  /** results.json, checked; null when the run has none (yet). */
  readResults(): StoredResults | null {
    return readResultsJson(this.dir);
  }

  get historyPath(): string {
    return join(this.dir, HISTORY_FILE);
  }

  get logsDir(): string {
    return join(this.dir, LOGS_DIR);
  }

  writeTest(test: TestJson): void {
    // Once interrupted, always interrupted: a write racing the signal's teardown must not erase the mark.
    const t = this.interrupted !== undefined ? { ...test, interrupted: this.interrupted } : test;
    writeJsonAtomic(join(this.dir, TEST_FILE), t);
    this.test = t;
  }

  writePlan(plan: RunPlan): void {
    writeFileAtomic(join(this.dir, PLAN_FILE), planText(plan));
  }

  /** A queue run's test.json or plan.json (src/run/run-queue-test.ts): its own options and plan, not a lock run's. */
  writeQueueFile(which: 'test' | 'plan', value: unknown): void {
    writeJsonAtomic(join(this.dir, which === 'test' ? TEST_FILE : PLAN_FILE), value);
  }

  writeResults(results: ResultsJson): void {
    writeJsonAtomic(join(this.dir, RESULTS_FILE), results);
  }

  /** Change fields of the test.json on disk (the scenarios stamp their replay command and rows), checked as read, written atomically. */
  amendTest(patch: Partial<Pick<TestJson, 'replay' | 'scenario'>>): void {
    writeJsonAtomic(join(this.dir, TEST_FILE), { ...this.requireTest(), ...patch });
  }

  /** Record in test.json that a signal stopped the run, so no reader takes its history for a finished run. */
  markInterrupted(signal: string, at: Date): void {
    if (this.test === undefined) throw new FencecheckError('run-store', `${this.dir}: markInterrupted before test.json was written`);
    this.interrupted = { signal, at: at.toISOString() };
    this.writeTest(this.test);
  }

  /** The typed error of a run that failed after this directory was made. */
  failed(cause: unknown): RunFailedError {
    return cause instanceof RunFailedError ? cause : new RunFailedError(this.dir, cause);
  }
}

/** rmdir, which only removes an empty directory: another run's files there keep it. */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (another run wrote there meanwhile) or gone: either way nothing of this run is left.
  }
}

function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}

/** `latest` → dir by a temporary link renamed over the old one: a reader sees the old run or the new, never no link. */
function currentLatest(parent: string): string | undefined {
  try {
    return readlinkSync(join(parent, LATEST_LINK));
  } catch {
    return undefined;
  }
}

function linkLatest(parent: string, dir: string): void {
  // Through the store's writer: a new link under a random name, renamed over `latest` (atomic-write.ts).
  replaceLink(join(parent, LATEST_LINK), basename(dir));
}
