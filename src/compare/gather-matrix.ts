/**
 * From compare directories (and loose run directories) to a MatrixInput: the
 * axes, the runs planned in scope, the runs that ended, the shards, warnings.
 *
 * Scope decides what "missing" means. A comparison running one shard plans
 * only that shard's runs; a merge plans every run of every spec it saw, so a
 * shard whose directory never arrived shows up as missing runs (and the exit
 * code says unknown) instead of silently shrinking the matrix.
 */
import { realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { MatrixInput } from './compare-report.js';
import { describeSpec, lockRows, planRuns, rowOfLabel, sameSpec, type LockRow } from './compare-spec.js';
import type { Manifest, ManifestRun } from './manifest.js';
import { readRunSummary, toolFailed, type RunSummary } from './run-summary.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { formatShard, inShard } from './shard.js';
import type { ResourceMode } from '../../core/vocabulary.js';
import { hasRunFile } from '../../runtime/store/run-dir-entries.js';

export interface CompareSource {
  dir: string;
  manifest: Manifest;
}

/** A run the manifest recorded, summarized from its run directory (or from the manifest when the tool failed). */
export function summarizeManifestRun(dir: string, run: ManifestRun): RunSummary {
  const identity = { id: run.id, cellId: run.cellId, seed: run.seed };
  const log = join(dir, run.log);
  const runDir = run.runDir === null ? null : join(dir, run.runDir);
  const escape = runDir === null ? null : leadsOutside(dir, runDir);
  if (escape !== null)
    return { ...identity, dir: null, log: null, hasReport: false, ...toolFailed(run.durationMs), replay: null, startedAt: null, error: escape };
  if (run.status === 'done' && runDir !== null) return readRunSummary(runDir, identity, log);
  // The tool failed; a run directory it left (a cluster that died mid-run) still has its options and partial history.
  const test = runDir === null ? null : readTestJson(runDir);
  return {
    ...identity,
    dir: runDir,
    log,
    hasReport: runDir !== null && hasRunFile(runDir, 'report'),
    ...toolFailed(run.durationMs),
    replay: typeof test?.['replay'] === 'string' ? test['replay'] : null,
    startedAt: typeof test?.['startedAt'] === 'string' ? test['startedAt'] : null,
    error: run.error ?? 'the tool failed',
  };
}

const LEADS_OUTSIDE = 'leads outside the compare directory';

/**
 * Why a manifest's run directory is refused: its real path (links followed: a `runs/` linked elsewhere) is
 * outside the compare directory's, so it is not this comparison's run. Null when it is inside or does not exist.
 */
function leadsOutside(compareDir: string, runDir: string): string | null {
  const real = (p: string): string | null => {
    try {
      return realpathSync(p);
    } catch {
      return null;
    }
  };
  const root = real(compareDir);
  const target = real(runDir);
  if (root === null || target === null || target === root || target.startsWith(root + sep)) return null;
  return `${runDir} ${LEADS_OUTSIDE} (to ${target}): not read, the run counts as failed`;
}

/** Every run the sources' manifests record, summarized. */
export function sourceRuns(sources: readonly CompareSource[]): RunSummary[] {
  return sources.flatMap((s) => s.manifest.runs.map((r) => summarizeManifestRun(s.dir, r)));
}

/** `runs`: the sources' runs (sourceRuns, or a cache of them) and any loose ones. */
export function gatherMatrix(sources: readonly CompareSource[], allRuns: readonly RunSummary[], scope: 'shard' | 'whole'): MatrixInput {
  const warnings: string[] = [];
  const rows = new Map<string, LockRow>();
  const resources = new Set<ResourceMode>();
  const nemeses = new Set<string>();
  const planned = new Map<string, number[]>();
  const plan = (cellId: string, seed: number): void => {
    const seeds = planned.get(cellId) ?? [];
    if (!seeds.includes(seed)) planned.set(cellId, [...seeds, seed]);
  };
  for (const { manifest } of sources) {
    lockRows(manifest.spec).forEach((row) => rows.set(row.label, row));
    manifest.spec.resources.forEach((r) => resources.add(r));
    manifest.spec.nemeses.forEach((n) => nemeses.add(n));
    for (const run of planRuns(manifest.spec)) if (scope === 'whole' || inShard(run.index, manifest.shard)) plan(run.cellId, run.seed);
  }
  const runs = dedupe(allRuns, warnings);
  // A run refused for leading outside is said where a merge's warnings are read, not only in its cell.
  for (const r of runs) if (r.error?.includes(LEADS_OUTSIDE) === true) warnings.push(r.error);
  const unverified = runs.filter((r) => r.unverified === true);
  if (unverified.length > 0)
    warnings.push(
      `${unverified.length} run${unverified.length === 1 ? ' has' : 's have'} no history.jsonl, so ${unverified.length === 1 ? 'its' : 'their'} results.json cannot be checked: counted as unknown (${unverified[0]!.dir}${unverified.length > 1 ? ', …' : ''})`,
    );
  for (const r of runs) {
    const [label, resource, nemesis] = r.cellId.split('/') as [string, ResourceMode, string];
    if (!rows.has(label)) rows.set(label, rowOfLabel(label));
    resources.add(resource);
    nemeses.add(nemesis);
  }
  const specs = sources.map((s) => s.manifest.spec);
  if (specs.some((s) => !sameSpec(s, specs[0]!)))
    warnings.push('the compare directories describe different comparisons: the matrix is their union, and a cell may mix runs with different options');
  const shards = [...new Set(sources.flatMap((s) => (s.manifest.shard ? [formatShard(s.manifest.shard)] : [])))].sort(byShard);
  if (scope === 'whole') warnings.push(...missingShards(sources));
  const descriptions = [...new Set(specs.map(describeSpec))];
  const description =
    descriptions.length === 1
      ? descriptions[0]!
      : descriptions.length === 0
        ? `${runs.length} runs gathered from run directories`
        : `several comparisons: ${descriptions.join(' | ')}`;
  return { backends: [...rows.values()], resources: [...resources], nemeses: [...nemeses], planned, runs, shards, description, warnings };
}

/** One summary per run: when a run appears twice (a shard run again), the later one counts. */
function dedupe(runs: readonly RunSummary[], warnings: string[]): RunSummary[] {
  const byId = new Map<string, RunSummary>();
  for (const r of runs) {
    const prior = byId.get(r.id);
    if (prior === undefined) {
      byId.set(r.id, r);
      continue;
    }
    const later = (r.startedAt ?? '') >= (prior.startedAt ?? '') ? r : prior;
    warnings.push(`${r.id} was found twice (${prior.dir ?? prior.log ?? '?'} and ${r.dir ?? r.log ?? '?'}); the later run counts`);
    byId.set(r.id, later);
  }
  return [...byId.values()];
}

function missingShards(sources: readonly CompareSource[]): string[] {
  const counts = new Set(sources.flatMap((s) => (s.manifest.shard ? [s.manifest.shard.count] : [])));
  const warnings: string[] = [];
  for (const count of counts) {
    const seen = new Set(sources.filter((s) => s.manifest.shard?.count === count).map((s) => s.manifest.shard!.index));
    for (let i = 1; i <= count; i++) if (!seen.has(i)) warnings.push(`shard ${i}/${count} is missing: its runs count as missing`);
  }
  return warnings;
}

function byShard(a: string, b: string): number {
  const [ai, an] = a.split('/').map(Number) as [number, number];
  const [bi, bn] = b.split('/').map(Number) as [number, number];
  return an - bn || ai - bi;
}
