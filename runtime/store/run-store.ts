/**
 * RunStore: the one owner of a run directory (Jepsen's store.clj).
 *
 *   results/<name>/<timestamp>/     made by `RunStore.create`, never reused
 *     test.json                     writeTest (then markInterrupted on a signal)
 *     history.jsonl                 appended by the recorder (historyPath)
 *     results.json                  writeResults
 *     logs/                         every server's and client's log
 *   results/<name>/latest           → the newest run, replaced atomically
 *
 * Every file is written whole or not at all (writeFileAtomic), so a reader
 * never meets half a test.json, and the readers beside the types
 * (test-json.ts, results-json.ts) name the field a bad file gets wrong.
 */
import { existsSync, mkdirSync, readlinkSync, renameSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { ensureWritableDir } from './writable-dir.js';
import { RESULTS_FILE, type ResultsJson } from '../../core/run-files/results-json.js';
import { RunFailedError } from './run-failed-error.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { readTestJson } from './read-run-files.js';
import { TEST_FILE, type TestJson } from '../../core/run-files/test-json.js';

export const HISTORY_FILE = 'history.jsonl';
export const LOGS_DIR = 'logs';
export const LATEST_LINK = 'latest';

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

  /** A run directory that exists already (`fencecheck check RUN_DIR` rewrites its results.json). */
  static open(dir: string): RunStore {
    return new RunStore(resolve(dir));
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

  writeResults(results: ResultsJson): void {
    writeJsonAtomic(join(this.dir, RESULTS_FILE), results);
  }

  /** Change fields of the test.json on disk (the scenarios stamp their replay command and rows), checked as read, written atomically. */
  amendTest(patch: Partial<Pick<TestJson, 'replay' | 'scenario'>>): void {
    const path = join(this.dir, TEST_FILE);
    const current = readTestJson(this.dir);
    if (current === null) throw new RunFileError(path, 'is missing');
    writeJsonAtomic(path, { ...current, ...patch });
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
  const temp = join(parent, `.${LATEST_LINK}.${process.pid}.tmp`);
  rmSync(temp, { force: true });
  symlinkSync(basename(dir), temp);
  renameSync(temp, join(parent, LATEST_LINK));
}
