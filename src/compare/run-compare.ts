/**
 * `runCompare`: run a comparison's runs (its shard's, when sharded) one at a
 * time, skipping those the manifest records as done. After every run the
 * manifest and the four outputs are rewritten, so the matrix can be watched
 * as it fills, and a comparison stopped at any point (Ctrl-C, a reboot, a CI
 * timeout) resumes where it was.
 *
 *   compare-dir/
 *     manifest.json                       the spec, the shard, the runs that ended
 *     compare.html compare.json junit.xml summary.md
 *     runs/<backend>-<resource>-<nemesis>/seed-<n>/
 *       run.log                           the harness's lines for this run
 *       <backend>-<resource>-<workload>/<timestamp>/   the run directory
 *
 * Runs share one machine-wide address range, so there is never more than one
 * at a time. A run whose tool failed is recorded as an error (unknown in the
 * matrix) and the comparison goes on; errors that every later run would hit
 * too (bad options, not root, a cluster another process keeps busy for more
 * than 15 minutes) stop it, as do three failures in a row.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RunOptions } from '../../workloads/runner/run-options.js';
import { FencecheckError } from '../errors.js';
import type { Validity } from '../store/results-json.js';
import { formatKinds } from './cell-summary.js';
import { plural } from './format-units.js';
import { buildCompareReport, type CompareReport } from './compare-report.js';
import { CompareProgress, type ProgressIo } from './compare-progress.js';
import { expectedRunMs, matrixCells, planRuns, runOptionsFor, type Cell, type PlannedRun } from './compare-spec.js';
import type { Expectation } from './expectations.js';
import { gatherMatrix, summarizeManifestRun } from './gather-matrix.js';
import { finishedRunIds, recordRun, writeManifest, type Manifest, type ManifestRun } from './manifest.js';
import type { RunSummary } from './run-summary.js';
import { inShard } from './shard.js';
import { writeCompareOutputs } from './write-compare-outputs.js';

export interface RunOneResult {
  valid: Validity;
  runDir: string;
  durationMs: number;
}

/** runLockTest, or a stand-in in tests. */
export type RunOne = (options: RunOptions, hooks: { log: (line: string) => void }) => Promise<RunOneResult>;

export interface CompareDeps {
  runOne: RunOne;
  /** Writes `<runDir>/report.html`; null to skip. */
  writeReport: ((runDir: string) => Promise<string>) | null;
  io: ProgressIo;
  /** Also copy each run's harness lines to stderr. */
  verbose: boolean;
  /** Waits while another process holds the machine's cluster; real time unless a test says otherwise. */
  sleep?: (ms: number) => Promise<void>;
}

/** Errors every later run would hit as well: stop the comparison. */
const FATAL_CODES = new Set(['usage', 'preflight', 'cluster-busy']);
const MAX_ERRORS_IN_A_ROW = 3;
/**
 * The address range is machine-wide: while another fencecheck process holds
 * it (a colleague's run), wait rather than fail, up to this long.
 */
const BUSY_WAIT_MS = 15 * 60_000;
const BUSY_POLL_MS = 10_000;

/** The runs of a comparison that this directory runs (its shard), in order. */
export function shardRuns(manifest: Manifest): PlannedRun[] {
  return planRuns(manifest.spec).filter((r) => inShard(r.index, manifest.shard));
}

export async function runCompare(dir: string, start: Manifest, expectations: readonly Expectation[] | null, deps: CompareDeps): Promise<CompareReport> {
  let manifest = start;
  mkdirSync(dir, { recursive: true });
  writeManifest(dir, manifest);
  const planned = shardRuns(manifest);
  const cells = new Map<string, Cell>(matrixCells(manifest.spec.backends, manifest.spec.resources, manifest.spec.nemeses).map((c) => [c.id, c]));
  const summaries = new Map<string, RunSummary>(manifest.runs.map((r) => [r.id, summarizeManifestRun(dir, r)]));
  const finished = finishedRunIds(manifest);
  const done = planned.filter((r) => finished.has(r.id)).length;
  const durations = manifest.runs.filter((r) => finished.has(r.id)).map((r) => r.durationMs);
  const progress = new CompareProgress(deps.io, planned.length, durations, expectedRunMs(manifest.spec.run));
  const refresh = (): CompareReport => {
    const report = buildCompareReport(gatherMatrix([{ dir, manifest }], [...summaries.values()], 'shard'), expectations, { outDir: dir, generatedAt: new Date(deps.io.now()).toISOString() });
    writeCompareOutputs(dir, report);
    return report;
  };

  if (done > 0) progress.line(`resuming ${dir}: ${done} of ${plural(planned.length, 'run')} already done`);
  refresh();
  let errorsInARow = 0;
  try {
    for (const p of planned) {
      if (finished.has(p.id)) continue;
      const cell = cells.get(p.cellId)!;
      const seedDir = join(dir, 'runs', `${cell.backend}-${cell.resource}-${cell.nemesis}`, `seed-${p.seed}`);
      mkdirSync(seedDir, { recursive: true });
      const logPath = join(seedDir, 'run.log');
      const log = (line: string): void => {
        appendFileSync(logPath, `${new Date(deps.io.now()).toISOString()} ${line}\n`);
        if (deps.verbose) progress.line(`  ${line}`);
      };
      const began = deps.io.now();
      progress.start(`${cell.id} seed ${p.seed}`);
      const notice = (line: string): void => {
        log(line);
        if (!deps.verbose) progress.line(`  ${line}`);
      };
      const entry = await attempt(p, runOptionsFor(manifest.spec, cell, p.seed, seedDir), deps, { log, notice }, began);
      const record: ManifestRun = { ...entry, log: relative(dir, logPath), runDir: entry.runDir === null ? null : relative(dir, entry.runDir) };
      manifest = recordRun(manifest, record);
      writeManifest(dir, manifest);
      const summary = summarizeManifestRun(dir, record);
      summaries.set(p.id, summary);
      progress.end(outcomeText(summary), record.durationMs);
      refresh();
      errorsInARow = record.status === 'error' ? errorsInARow + 1 : 0;
      if (errorsInARow >= MAX_ERRORS_IN_A_ROW) {
        throw new FencecheckError('compare-stopped', `${MAX_ERRORS_IN_A_ROW} runs in a row failed to run (last: ${record.error ?? '?'})`, {
          hint: `Something is wrong with the machine rather than one lock: see ${logPath}, run \`fencecheck doctor\`, then resume with \`fencecheck compare --resume ${dir}\`.`,
        });
      }
    }
  } finally {
    progress.stop();
  }
  return refresh();
}

/** One run, its report written; a tool failure becomes an `error` entry unless every later run would fail too. */
async function attempt(p: PlannedRun, options: RunOptions, deps: CompareDeps, say: { log: (line: string) => void; notice: (line: string) => void }, began: number): Promise<Omit<ManifestRun, 'log'>> {
  const log = say.log;
  const base = { id: p.id, cellId: p.cellId, seed: p.seed, index: p.index };
  const before = new Set(runDirsIn(options.resultsDir));
  try {
    const result = await runWhenFree(() => deps.runOne(options, { log }), deps, say.notice);
    if (deps.writeReport && !existsSync(join(result.runDir, 'report.html'))) {
      await deps.writeReport(result.runDir).catch((err: unknown) => log(`report: not written: ${err instanceof Error ? err.message : String(err)}`));
    }
    return { ...base, status: 'done', valid: result.valid, runDir: result.runDir, durationMs: result.durationMs, finishedAt: new Date(deps.io.now()).toISOString(), error: null };
  } catch (err) {
    if (err instanceof FencecheckError && FATAL_CODES.has(err.code)) throw err;
    const message = err instanceof Error ? err.message : String(err);
    log(`error: ${err instanceof Error ? (err.stack ?? message) : message}`);
    const runDir = runDirsIn(options.resultsDir).filter((d) => !before.has(d)).sort().at(-1) ?? null;
    if (runDir !== null && deps.writeReport) {
      await deps.writeReport(runDir).catch((e: unknown) => log(`report: not written: ${e instanceof Error ? e.message : String(e)}`));
    }
    return { ...base, status: 'error', valid: null, runDir, durationMs: deps.io.now() - began, finishedAt: new Date(deps.io.now()).toISOString(), error: message };
  }
}

/** Start a run, starting again while the machine's cluster is busy with another process (up to BUSY_WAIT_MS). */
async function runWhenFree<T>(start: () => Promise<T>, deps: CompareDeps, notice: (line: string) => void): Promise<T> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  for (let waited = 0; ; waited += BUSY_POLL_MS) {
    try {
      return await start();
    } catch (err) {
      if (!(err instanceof FencecheckError && err.code === 'cluster-busy') || waited >= BUSY_WAIT_MS) throw err;
      notice(`${err.message} Waiting ${BUSY_POLL_MS / 1000} s (${Math.round(waited / 1000)} s so far).`);
      await sleep(BUSY_POLL_MS);
    }
  }
}

/** Run directories under a seed directory (`<test>/<timestamp>/` with a test.json), links left out. */
function runDirsIn(seedDir: string): string[] {
  const dirs = (parent: string): string[] => {
    try {
      return readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(parent, e.name));
    } catch {
      return [];
    }
  };
  return dirs(seedDir).flatMap(dirs).filter((d) => existsSync(join(d, 'test.json')));
}

function outcomeText(s: RunSummary): string {
  switch (s.status) {
    case 'valid':
      return 'valid';
    case 'invalid':
      return `INVALID (${formatKinds(s.anomalies) || 'see report'})`;
    case 'unknown':
      return 'unknown';
    case 'error':
      return `ERROR (${(s.error ?? '?').split('\n')[0]})`;
  }
}
