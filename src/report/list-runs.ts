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
import { assertRunFilesInside, readTestJson } from '../../runtime/store/read-run-files.js';
import { type StoredTest } from '../../core/run-files/test-json.js';
import { readRunHistory, verifiedResults, type VerifiedResults } from '../check/verify-run.js';

export interface RunSummary {
  /** Path relative to the results directory, with `/` separators. */
  path: string;
  dir: string;
  name: string;
  test: StoredTest | null;
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
    if (names.has(RUN_FILES.test)) summary.test = readTestJson(dir);
    if (typeof summary.test?.name === 'string') summary.name = summary.test.name;
    if (names.has(RUN_FILES.results)) {
      const verified = await cachedVerification(dir, summary.test, names.has(RUN_FILES.history));
      // Without its history a results.json gives no verdict: the row shows the reason, not the file's word.
      if (verified?.results) addResults(summary, verified.results);
      if (verified?.unchecked) summary.problem = verified.unchecked;
    }
  } catch (err) {
    summary.problem = (err as Error).message;
  }
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
const MAX_CACHED = 10_000;

/** verifiedResults, read again only when one of the run's files changed (size, time or inode). */
async function cachedVerification(dir: string, test: StoredTest | null, hasHistory: boolean): Promise<VerifiedResults | null> {
  const stamps = await Promise.all(
    [RUN_FILES.test, RUN_FILES.results, RUN_FILES.history].map((n) =>
      stat(join(dir, n)).then(
        (s) => `${s.ino}:${s.size}:${s.mtimeMs}`,
        () => '-',
      ),
    ),
  );
  const stamp = stamps.join('|');
  const cached = verifications.get(dir);
  if (cached?.stamp === stamp) return cached.value;
  const value = verifiedResults(dir, test, () => (hasHistory ? readRunHistory(dir) : null));
  if (verifications.size >= MAX_CACHED) verifications.clear();
  verifications.set(dir, { stamp, value });
  return value;
}

function addResults(summary: RunSummary, results: StoredResults): void {
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
