/**
 * The runs under a results directory, for the index page and `fencecheck
 * serve`: every directory holding a history.jsonl, test.json or results.json
 * (results/<test>/<timestamp>/), summarised from its small files only, never
 * its history, so listing a thousand runs stays quick.
 *
 * Symbolic links (`latest`) are not followed: they point at a run already
 * listed. A run whose files are broken is listed with the problem, not
 * dropped, and does not stop the listing.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { RUN_FILES } from './read-run-dir.js';
import { parseResultsJson, type StoredResults, type Validity } from '../store/results-json.js';
import { storedOutcome } from '../store/stored-outcome.js';
import { parseTestJson, type StoredTest } from '../store/test-json.js';

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
  /** report.html exists and is newer than the history and the results. */
  reportFresh: boolean;
  problem?: string;
}

/** Runs nest at most this deep below the results directory. */
const MAX_DEPTH = 6;

export async function listRuns(resultsDir: string): Promise<RunSummary[]> {
  const info = await stat(resultsDir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new UsageError(`Expected a results directory, got \`${resultsDir}\``, 'Pass the directory `fencecheck run` writes into, e.g. results/.');
  }
  const runs: RunSummary[] = [];
  await walk(resultsDir, resultsDir, 0, runs);
  return runs.sort((a, b) => startedAt(b).localeCompare(startedAt(a)) || a.path.localeCompare(b.path));
}

async function walk(root: string, dir: string, depth: number, out: RunSummary[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const names = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
  if (names.has(RUN_FILES.history) || names.has(RUN_FILES.results) || names.has(RUN_FILES.test)) {
    out.push(await summarise(root, dir, names));
    return;
  }
  if (depth >= MAX_DEPTH) return;
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.isDirectory() && !e.name.startsWith('.')) await walk(root, join(dir, e.name), depth + 1, out);
  }
}

async function summarise(root: string, dir: string, names: Set<string>): Promise<RunSummary> {
  const path = relative(root, dir).split(sep).join('/') || '.';
  const summary: RunSummary = { path, dir, name: path, test: null, valid: null, untested: null, checkers: [], anomalies: 0, hasHistory: names.has(RUN_FILES.history), reportFresh: false };
  try {
    if (names.has(RUN_FILES.test)) summary.test = parseTestJson(await readFile(join(dir, RUN_FILES.test), 'utf8'), join(dir, RUN_FILES.test));
    if (typeof summary.test?.name === 'string') summary.name = summary.test.name;
    if (names.has(RUN_FILES.results)) addResults(summary, parseResultsJson(await readFile(join(dir, RUN_FILES.results), 'utf8'), join(dir, RUN_FILES.results)));
  } catch (err) {
    summary.problem = (err as Error).message;
  }
  summary.reportFresh = names.has(RUN_FILES.report) && (await isNewer(join(dir, RUN_FILES.report), [RUN_FILES.history, RUN_FILES.results].filter((n) => names.has(n)).map((n) => join(dir, n))));
  return summary;
}

function addResults(summary: RunSummary, results: StoredResults): void {
  summary.valid = results.valid;
  const { outcome, why } = storedOutcome(results);
  summary.untested = outcome === 'untested' ? why : null;
  summary.checkers = results.checkers.map((c) => ({ checker: c.checker, valid: c.valid, ...(c.summary === undefined ? {} : { summary: c.summary }) }));
  summary.anomalies = results.checkers.reduce((n, c) => n + (c.anomalies?.length ?? c.anomalyCount ?? 0), 0);
}

async function isNewer(path: string, than: string[]): Promise<boolean> {
  const mtime = async (p: string): Promise<number> => (await stat(p)).mtimeMs;
  const own = await mtime(path);
  for (const other of than) if ((await mtime(other)) > own) return false;
  return true;
}

function startedAt(run: RunSummary): string {
  return typeof run.test?.startedAt === 'string' ? run.test.startedAt : '';
}
