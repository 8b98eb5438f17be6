/**
 * The runs under a results directory, for the index page and `fencecheck
 * serve`: every directory holding a history.jsonl, test.json or results.json
 * (results/<test>/<timestamp>/), summarised from its small files only, never
 * its history, so listing a thousand runs stays quick.
 *
 * Runs are found at any depth, so the layouts of `compare` (results/compare/
 * <stamp>/runs/<cell>/seed-N/<test>/<stamp>/, seven levels) and of the debate
 * scenarios appear too; their compare.html and debate.html pages are listed
 * beside the runs. Symbolic links (`latest`) are not followed: they point at a
 * run already listed. Each directory is entered once (by device and inode),
 * so a loop made by a bind mount ends the walk there instead of running on.
 * A run whose files are broken is listed with the problem, not dropped, and
 * does not stop the listing.
 *
 * The verdict shown is recomputed from the history (verify-run.ts): a
 * results.json that disagrees with it is listed as a problem, not as its
 * claim. The history is read only when a run's files changed since the last
 * listing (a cache keyed by their sizes and times), so `serve` stays quick.
 * Run files are read as regular files with a size bound: a FIFO or a device
 * under the results directory is a listed problem, never a hang; a run file
 * linked out of its run directory is a listed problem too, and is not read
 * (runtime/store/confined-path.ts, the rule of every reader of a run).
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { RUN_FILES } from './read-run-dir.js';
import type { StoredResults, Validity } from '../../core/run-files/results-json.js';
import { storedOutcome } from '../../core/run-files/stored-outcome.js';
import { assertRunFilesInside, readQueueRun, readTestJson, type QueueRunFacts } from '../../runtime/store/read-run-files.js';
import type { StoredQueueTest } from '../../core/queue/queue-run-files.js';
import type { QueueResults } from '../../core/queue/queue-outcome.js';
import { judgeQueueRunDir } from '../check/check-queue-run-dir.js';
import { type StoredTest } from '../../core/run-files/test-json.js';
import { readRunHistory } from '../history/read-run-history.js';
import { verifiedResults, type VerifiedResults } from '../check/verify-run.js';

export interface RunSummary {
  /** Path relative to the results directory, with `/` separators. */
  path: string;
  dir: string;
  name: string;
  /** A lock run's test.json, or a queue run's (workload queue). */
  test: StoredTest | StoredQueueTest | null;
  valid: Validity | null;
  /** Why a valid run is untested (no fault struck, the lock never failed, or no evidence recorded); null otherwise. */
  untested: string | null;
  checkers: { checker: string; valid: Validity; summary?: string }[];
  anomalies: number;
  hasHistory: boolean;
  /** report.html exists (fresh or not). */
  hasReport: boolean;
  /** report.html exists and is newer than the history and the results. */
  reportFresh: boolean;
  problem?: string;
}

/** The pages of a comparison and of a debate run, listed in the index and served. */
export const SUMMARY_PAGES = ['compare.html', 'debate.html'] as const;

export interface SummaryPage {
  /** Path of the page relative to the results directory, with `/` separators. */
  path: string;
  kind: 'compare' | 'debate';
}

export interface ResultsListing {
  runs: RunSummary[];
  pages: SummaryPage[];
}

export async function listRuns(resultsDir: string): Promise<RunSummary[]> {
  return (await listResults(resultsDir)).runs;
}

/** The runs and the comparison and debate pages under a results directory. */
export async function listResults(resultsDir: string): Promise<ResultsListing> {
  const info = await stat(resultsDir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new UsageError(`Expected a results directory, got \`${resultsDir}\``, 'Pass the directory `fencecheck run` writes into, e.g. results/.');
  }
  const listing: ResultsListing = { runs: [], pages: [] };
  await walk(resultsDir, resultsDir, listing, new Set());
  listing.runs.sort((a, b) => startedAt(b).localeCompare(startedAt(a)) || a.path.localeCompare(b.path));
  listing.pages.sort((a, b) => b.path.localeCompare(a.path));
  return listing;
}

async function walk(root: string, dir: string, out: ResultsListing, seen: Set<string>): Promise<void> {
  const id = await lstat(dir).then(
    (s) => `${s.dev}:${s.ino}`,
    () => null,
  );
  if (id === null || seen.has(id)) return;
  seen.add(id);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  // Not only regular files: a FIFO named results.json is a run's file too, listed with why it cannot be read.
  const names = new Set(entries.filter((e) => !e.isDirectory()).map((e) => e.name));
  if (names.has(RUN_FILES.history) || names.has(RUN_FILES.results) || names.has(RUN_FILES.test)) {
    out.runs.push(await summarise(root, dir, names));
    return;
  }
  for (const page of SUMMARY_PAGES) {
    if (names.has(page)) out.pages.push({ path: relativePath(root, join(dir, page)), kind: page === 'compare.html' ? 'compare' : 'debate' });
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.isDirectory() && !e.name.startsWith('.') && e.name !== RUN_FILES.logs) await walk(root, join(dir, e.name), out, seen);
  }
}

function relativePath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/') || '.';
}

async function summarise(root: string, dir: string, names: Set<string>): Promise<RunSummary> {
  const path = relativePath(root, dir);
  const summary: RunSummary = {
    path,
    dir,
    name: path,
    test: null,
    valid: null,
    untested: null,
    checkers: [],
    anomalies: 0,
    hasHistory: names.has(RUN_FILES.history),
    hasReport: names.has(RUN_FILES.report),
    reportFresh: false,
  };
  try {
    // Said before anything is read: a run file linked out of the run directory is the run's problem (confined-path.ts).
    assertRunFilesInside(dir);
    // A queue run's directory is summarised by its own reader: its verdict judged from its history (total-queue).
    const queue = names.has(RUN_FILES.test) ? readQueueRun(dir) : null;
    if (queue !== null) return await summariseQueueRun(summary, dir, queue, names);
    const test = names.has(RUN_FILES.test) ? readTestJson(dir) : null;
    summary.test = test;
    if (typeof test?.name === 'string') summary.name = test.name;
    if (names.has(RUN_FILES.results)) {
      const verified = await cachedVerification(dir, test, names.has(RUN_FILES.history));
      // Without its history a results.json gives no verdict: the row shows the reason, not the file's word.
      if (verified?.results) addResults(summary, verified.results);
      if (verified?.unchecked) summary.problem = verified.unchecked;
    }
  } catch (err) {
    summary.problem = (err as Error).message;
  }
  return withReportFreshness(summary, dir, names);
}

async function summariseQueueRun(summary: RunSummary, dir: string, run: QueueRunFacts, names: Set<string>): Promise<RunSummary> {
  summary.test = run.test;
  summary.name = run.test.name;
  if (names.has(RUN_FILES.history)) {
    const judged = await cachedQueueJudgement(dir, run);
    addResults(summary, judged);
  } else summary.problem = `${RUN_FILES.history} is missing: a queue run's verdict is judged from it`;
  return withReportFreshness(summary, dir, names);
}

async function withReportFreshness(summary: RunSummary, dir: string, names: Set<string>): Promise<RunSummary> {
  // A report.html that is a link is not one fencecheck wrote (its writer replaces it with a file): never fresh, so it is rewritten.
  const report = names.has(RUN_FILES.report) ? await lstat(join(dir, RUN_FILES.report)).catch(() => null) : null;
  summary.reportFresh =
    report?.isFile() === true &&
    (await isNewer(
      join(dir, RUN_FILES.report),
      [RUN_FILES.history, RUN_FILES.results].filter((n) => names.has(n)).map((n) => join(dir, n)),
    ));
  return summary;
}

const verifications = new Map<string, { stamp: string; value: VerifiedResults | null }>();
const judgements = new Map<string, { stamp: string; value: QueueResults }>();
const MAX_CACHED = 10_000;

/** verifiedResults, read again only when one of the run's files changed (size, time or inode). */
function cachedVerification(dir: string, test: StoredTest | null, hasHistory: boolean): Promise<VerifiedResults | null> {
  return cachedByStamp(verifications, dir, () => verifiedResults(dir, test, () => (hasHistory ? readRunHistory(dir) : null)));
}

/** A queue run judged from its history (judgeQueueRunDir), again only when one of its files changed. */
function cachedQueueJudgement(dir: string, run: QueueRunFacts): Promise<QueueResults> {
  return cachedByStamp(judgements, dir, () => judgeQueueRunDir(dir, run).results);
}

/** `compute`'s value for the run, kept while the run's files stay as they were (filesStamp). */
async function cachedByStamp<T>(cache: Map<string, { stamp: string; value: T }>, dir: string, compute: () => T): Promise<T> {
  const stamp = await filesStamp(dir);
  const cached = cache.get(dir);
  if (cached?.stamp === stamp) return cached.value;
  const value = compute();
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(dir, { stamp, value });
  return value;
}

/** The run's files as they are now (inode, size, time of each), to tell a cached verdict is still the files'. */
async function filesStamp(dir: string): Promise<string> {
  const stamps = await Promise.all(
    [RUN_FILES.test, RUN_FILES.results, RUN_FILES.history].map((n) =>
      stat(join(dir, n)).then(
        (s) => `${s.ino}:${s.size}:${s.mtimeMs}`,
        () => '-',
      ),
    ),
  );
  return stamps.join('|');
}

function addResults(summary: RunSummary, results: StoredResults | QueueResults): void {
  summary.valid = results.valid;
  const { outcome, why } = storedOutcome(results);
  summary.untested = outcome === 'untested' ? why : null;
  summary.checkers = results.checkers.map((c) => ({ checker: c.checker, valid: c.valid, ...(c.summary === undefined ? {} : { summary: c.summary }) }));
  summary.anomalies = results.checkers.reduce((n, c) => n + (c.anomalies?.length ?? c.anomalyCount ?? 0), 0);
}

async function isNewer(path: string, than: string[]): Promise<boolean> {
  const mtime = async (p: string): Promise<number> => (await stat(p).catch(() => ({ mtimeMs: Infinity }))).mtimeMs;
  const own = await mtime(path);
  for (const other of than) if ((await mtime(other)) > own) return false;
  return true;
}

function startedAt(run: RunSummary): string {
  return typeof run.test?.startedAt === 'string' ? run.test.startedAt : '';
}
