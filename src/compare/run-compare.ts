/**
 * `runCompare`: run a comparison's runs (its shard's, when sharded), one at a
 * time or one a lane (`--parallel`: each lane a warm cluster in a slot of its
 * own, taking next a run of the backend its cluster has, so clusters are
 * reused), skipping those the manifest records as done. After every run the
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
 * The runs go through the batch runner (src/batch/batch-runner.ts) with
 * COMPARE_POLICY: one at a time, another process's cluster waited for. A run
 * whose tool failed is recorded as an error (unknown in the matrix) with the
 * run directory it left, and the comparison goes on; errors that every later
 * run would hit too (bad options, not root, a cluster another process keeps
 * busy for more than 15 minutes, a full disk) stop it, as do three failures
 * in a row.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RunOptions } from '../../core/plan/run-options.js';
import { BatchRunner, COMPARE_POLICY, type BatchSay } from '../batch/batch-runner.js';
import type { Validity } from '../../core/run-files/results-json.js';
import { formatKinds } from './cell-summary.js';
import { plural } from './format-units.js';
import { buildCompareReport, type CompareReport } from './compare-report.js';
import { CompareProgress, type ProgressIo } from './compare-progress.js';
import { executionOrder, expectedRunMs, lockRows, matrixCells, planRuns, runOptionsFor, type Cell, type PlannedRun } from './compare-spec.js';
import type { Expectation } from './expectations.js';
import { gatherMatrix, summarizeManifestRun } from './gather-matrix.js';
import { finishedRunIds, recordRun, writeManifest, type Manifest, type ManifestRun } from './manifest.js';
import type { RunSummary } from './run-summary.js';
import { inShard } from './shard.js';
import { writeCompareOutputs } from './write-compare-outputs.js';
import { hasRunFile } from '../../runtime/store/run-dir-entries.js';
import { drainOnLanes } from '../batch/drain-on-lanes.js';

export interface RunOneResult {
  valid: Validity;
  runDir: string;
  durationMs: number;
}

/**
 * runLockTest, or a stand-in in tests: it waits up to `busyTimeoutMs` for another process's cluster, and throws
 * RunFailedError once it made its directory; `lane` is the cluster it runs on (0 when there is one).
 */
export type RunOne = (options: RunOptions, hooks: { log: (line: string) => void; busyTimeoutMs: number }, lane: number) => Promise<RunOneResult>;

export interface CompareDeps {
  runOne: RunOne;
  /** Writes `<runDir>/report.html`; null to skip. */
  writeReport: ((runDir: string) => Promise<string>) | null;
  io: ProgressIo;
  /** Also copy each run's harness lines to stderr. */
  verbose: boolean;
  /** Whether another process holds the machine's cluster now (clusterLockHeld). */
  clusterBusy: () => Promise<boolean>;
  /** Runs at once, each on a lane of its own (`--parallel`); 1 when absent. */
  lanes?: number;
}

/** The runs of a comparison that this directory runs (its shard), in order. */
export function shardRuns(manifest: Manifest): PlannedRun[] {
  return planRuns(manifest.spec).filter((r) => inShard(r.index, manifest.shard));
}

export async function runCompare(dir: string, start: Manifest, expectations: readonly Expectation[] | null, deps: CompareDeps): Promise<CompareReport> {
  let manifest = start;
  mkdirSync(dir, { recursive: true });
  writeManifest(dir, manifest);
  const planned = shardRuns(manifest);
  const cells = new Map<string, Cell>(matrixCells(lockRows(manifest.spec), manifest.spec.resources, manifest.spec.nemeses).map((c) => [c.id, c]));
  const summaries = new Map<string, RunSummary>(manifest.runs.map((r) => [r.id, summarizeManifestRun(dir, r)]));
  const finished = finishedRunIds(manifest);
  const done = planned.filter((r) => finished.has(r.id)).length;
  const durations = manifest.runs.filter((r) => finished.has(r.id)).map((r) => r.durationMs);
  const lanes = deps.lanes ?? 1;
  const progress = new CompareProgress(deps.io, planned.length, durations, expectedRunMs(manifest.spec.run), lanes);
  const refresh = (): CompareReport => {
    const report = buildCompareReport(gatherMatrix([{ dir, manifest }], [...summaries.values()], 'shard'), expectations, {
      outDir: dir,
      generatedAt: new Date(deps.io.now()).toISOString(),
    });
    writeCompareOutputs(dir, report);
    return report;
  };

  if (done > 0) progress.line(`resuming ${dir}: ${done} of ${plural(planned.length, 'run')} already done`);
  refresh();
  const batch = new BatchRunner(COMPARE_POLICY, deps.clusterBusy);
  const backendOf = (r: PlannedRun): string => cells.get(r.cellId)!.backend;
  // One backend's runs in a row: the warm cluster of each lane serves as many of them as it can.
  const queue = executionOrder(planned, backendOf).filter((p) => !finished.has(p.id));
  try {
    await drainOnLanes(queue, lanes, backendOf, async (p, n) => {
      const cell = cells.get(p.cellId)!;
      const seedDir = join(dir, 'runs', `${cell.backend}-${cell.resource}-${cell.nemesis}`, `seed-${p.seed}`);
      mkdirSync(seedDir, { recursive: true });
      const logPath = join(seedDir, 'run.log');
      const log = (line: string): void => {
        appendFileSync(logPath, `${new Date(deps.io.now()).toISOString()} ${line}\n`);
        if (deps.verbose) progress.line(`  ${lanes > 1 ? `[lane ${n + 1}] ` : ''}${line}`);
      };
      const began = deps.io.now();
      const shown = progress.start(`${cell.id} seed ${p.seed}`);
      const notice = (line: string): void => {
        log(line);
        if (!deps.verbose) progress.line(`  ${line}`);
      };
      const entry = await attempt(batch, p, runOptionsFor(manifest.spec, cell, p.seed, seedDir), deps, { log, notice }, began, n);
      const record: ManifestRun = { ...entry, log: relative(dir, logPath), runDir: entry.runDir === null ? null : relative(dir, entry.runDir) };
      manifest = recordRun(manifest, record);
      writeManifest(dir, manifest);
      const summary = summarizeManifestRun(dir, record);
      summaries.set(p.id, summary);
      progress.end(outcomeText(summary), record.durationMs, shown);
      refresh();
      if (record.status === 'error') {
        batch.stopIfFailing(
          record.error ?? '?',
          `Something is wrong with the machine rather than one lock: see ${logPath}, run \`fencecheck doctor\`, then resume with \`fencecheck compare --resume ${dir}\`.`,
        );
      }
    });
  } finally {
    progress.stop();
  }
  return refresh();
}

/** One run through the batch runner, its report written; a tool failure becomes an `error` entry with the directory it left. */
async function attempt(
  batch: BatchRunner,
  p: PlannedRun,
  options: RunOptions,
  deps: CompareDeps,
  say: BatchSay,
  began: number,
  lane: number,
): Promise<Omit<ManifestRun, 'log'>> {
  const base = { id: p.id, cellId: p.cellId, seed: p.seed, index: p.index };
  const writeReport = async (runDir: string): Promise<void> => {
    if (deps.writeReport && !hasRunFile(runDir, 'report')) {
      await deps.writeReport(runDir).catch((err: unknown) => say.log(`report: not written: ${err instanceof Error ? err.message : String(err)}`));
    }
  };
  const got = await batch.attempt((busyTimeoutMs) => deps.runOne(options, { log: say.log, busyTimeoutMs }, lane), say);
  const finishedAt = new Date(deps.io.now()).toISOString();
  if (got.ok) {
    await writeReport(got.value.runDir);
    return { ...base, status: 'done', valid: got.value.valid, runDir: got.value.runDir, durationMs: got.value.durationMs, finishedAt, error: null };
  }
  if (got.runDir !== null) await writeReport(got.runDir);
  return { ...base, status: 'error', valid: null, runDir: got.runDir, durationMs: deps.io.now() - began, finishedAt, error: got.error };
}

function outcomeText(s: RunSummary): string {
  switch (s.status) {
    case 'valid':
      return s.outcome === 'untested' ? `valid but UNTESTED (${s.untestedWhy ?? '?'})` : 'valid';
    case 'invalid':
      return `INVALID (${formatKinds(s.anomalies) || 'see report'})`;
    case 'unknown':
      return 'unknown';
    case 'error':
      return `ERROR (${(s.error ?? '?').split('\n')[0]})`;
  }
}
