/**
 * One run boiled down to what a matrix cell shows: its status, its anomalies
 * counted by kind, what its failing checkers said, and the resource accesses
 * from the access-stats checker (writes accepted, rejected, unknown, and the
 * "safe but useless" flag when a fence rejected every write).
 *
 * `summarizeResults` is pure over a parsed results.json; `readRunSummary` reads
 * a run directory, where a missing results.json (a run killed before its
 * checkers ran) makes the run `unknown`, never valid. The results it reads are
 * recomputed from the run's history and must match the file (verify-run.ts):
 * a shard's results.json is never taken on its word.
 */
import { join } from 'node:path';
import type { Value } from '../../core/history/op.js';
import type { Evidence, Outcome } from '../../core/checkers/lock/evidence.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { RESULTS_FILE, type StoredResults, type StoredVerdict } from '../../core/run-files/results-json.js';
import { readRunHistory } from '../history/read-run-history.js';
import { verifiedResults } from '../check/verify-run.js';
import { storedOutcome } from '../../core/run-files/stored-outcome.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { runJobsOf, type RunJobs } from './cell-jobs.js';
import { hasRunEntry, hasRunFile } from '../../runtime/store/run-dir-entries.js';

export type RunStatus = 'valid' | 'invalid' | 'unknown' | 'error';
export type RunOutcome = Outcome | 'error';

export interface WriteCounts {
  accepted: number;
  rejected: number;
  unknown: number;
}

/** What a run's protection cost (the section-cost checker's stats): throughput, refusals, retries, latency. */
export interface RunCost {
  sectionsPerSecond: number;
  completed: number;
  refusals: number;
  retries: number;
  timeouts: number;
  sectionP99Ms: number;
}

export interface RunSummary {
  id: string;
  cellId: string;
  seed: number;
  /** The run directory (absolute), or null when the tool failed before making one. */
  dir: string | null;
  /** The run's harness log (absolute), when known. */
  log: string | null;
  /** The run directory has its report.html. */
  hasReport: boolean;
  /** `error`: the tool failed, nothing was checked. */
  status: RunStatus;
  durationMs: number | null;
  /** safe / unsafe / unknown / untested as results.json records it (stored-outcome.ts); `error` when the tool failed. */
  outcome: RunOutcome;
  /** Why a valid run is untested, in words. */
  untestedWhy: string | null;
  /** What the faults did and what tested the protection; null for a results.json from before it was recorded. */
  evidence: Evidence | null;
  /** Anomalies by kind, over the deciding checkers (capped lists are counted in full; see anomaliesByKind). */
  anomalies: Record<string, number>;
  /** Anomalies by kind of the checkers that report but do not decide (mutual-exclusion on data workloads): information. */
  informational: Record<string, number>;
  /** `checker: summary` of each deciding checker that is not valid. */
  failing: string[];
  writes: WriteCounts | null;
  /** The fence rejected every write: safe, but nobody got anything done. */
  useless: boolean;
  /** The section-cost checker's measure; absent or null when it measured nothing (or before it existed). */
  cost?: RunCost | null;
  /** The jobs workload's measure (the jobs checker's stats); absent or null on other workloads. */
  jobs?: RunJobs | null;
  replay: string | null;
  startedAt: string | null;
  /** Why the run is `error` or has no results. */
  error: string | null;
  /** The run has no history.jsonl: its results.json could not be checked, so the run counts as unknown (the compare report warns). */
  unverified?: true;
}

export type ResultsSummary = Pick<
  RunSummary,
  'status' | 'outcome' | 'untestedWhy' | 'evidence' | 'durationMs' | 'anomalies' | 'informational' | 'failing' | 'writes' | 'useless' | 'cost' | 'jobs'
>;

/** Results that say which checkers decide: what the run writes, and what verify-run.ts recomputes. */
export type DecidedResults = StoredResults & { deciding: string[] };

/**
 * Only the deciding checkers count (results.json `deciding`): the others are
 * information, so a mutual-exclusion verdict on a data workload never makes
 * a run look failed. Every results.json the product writes says which decide,
 * and the files compare reads are recomputed from the history (verify-run.ts),
 * so an older file without `deciding` never reaches here.
 */
export function summarizeResults(results: DecidedResults): ResultsSummary {
  const access = results.checkers.find((c) => c.checker === 'access-stats');
  const stats = access?.stats ?? null;
  const writes =
    stats === null ? null : { accepted: num(stats['write.accepted']), rejected: num(stats['write.rejected']), unknown: num(stats['write.unknown']) };
  const decides = (c: StoredVerdict): boolean => results.deciding.includes(c.checker);
  const { outcome, why } = storedOutcome(results);
  return {
    status: results.valid === true ? 'valid' : results.valid === false ? 'invalid' : 'unknown',
    outcome,
    untestedWhy: why,
    evidence: results.evidence ?? null,
    durationMs: typeof results.durationMs === 'number' ? results.durationMs : null,
    anomalies: anomaliesByKind(results.checkers.filter(decides)),
    informational: anomaliesByKind(results.checkers.filter((c) => !decides(c))),
    failing: results.checkers.filter((c) => decides(c) && c.valid !== true).map((c) => `${c.checker}: ${c.summary ?? c.error ?? String(c.valid)}`),
    writes,
    useless: stats !== null && (num(stats['useless']) > 0 || (writes !== null && writes.accepted === 0 && writes.rejected > 0)),
    cost: costOf(results.checkers.find((c) => c.checker === 'section-cost')),
    jobs: runJobsOf(results.checkers.find((c) => c.checker === 'jobs')?.stats),
  };
}

/** The cost of a run from its section-cost verdict; null when it measured nothing (no section completed). */
function costOf(v: StoredVerdict | undefined): RunCost | null {
  const s = v?.stats;
  if (v === undefined || v.valid !== true || s === undefined || typeof s['sectionsPerSecond'] !== 'number') return null;
  return {
    sectionsPerSecond: num(s['sectionsPerSecond']),
    completed: num(s['completed']),
    refusals: num(s['refusals']),
    retries: num(s['retries']),
    timeouts: num(s['timeouts']),
    sectionP99Ms: num(s['sectionMs.p99']),
  };
}

/**
 * Anomalies counted by kind. A checker lists at most 100 anomalies but counts
 * them all (`anomalyCount`): the unlisted rest is credited to the listed kind
 * when there is only one, else to `<checker> (unlisted)`, never dropped.
 */
export function anomaliesByKind(checkers: readonly StoredVerdict[]): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (kind: string, n: number): void => {
    if (n > 0) counts[kind] = (counts[kind] ?? 0) + n;
  };
  for (const c of checkers) {
    const listed = c.anomalies ?? [];
    const kinds = new Set<string>();
    for (const a of listed) {
      add(a.kind, 1);
      kinds.add(a.kind);
    }
    const rest = (c.anomalyCount ?? listed.length) - listed.length;
    if (rest > 0) add(kinds.size === 1 ? [...kinds][0]! : `${c.checker} (unlisted)`, rest);
  }
  return counts;
}

/** The summary of a run that reached no verdict (no results.json): unknown, never valid. */
export const NOT_FINISHED: ResultsSummary = {
  status: 'unknown',
  outcome: 'unknown',
  untestedWhy: null,
  evidence: null,
  durationMs: null,
  anomalies: {},
  informational: {},
  failing: [],
  writes: null,
  useless: false,
};

/** The summary of a run the tool failed to make or finish: nothing was checked. */
export function toolFailed(durationMs: number | null): ResultsSummary {
  return { ...NOT_FINISHED, status: 'error', outcome: 'error', durationMs };
}

export interface RunIdentity {
  id: string;
  cellId: string;
  seed: number;
}

/** Summarize a run directory; a run without results.json is `unknown` with the reason. `ownRun`: as readRunDir's (report/read-run-dir.ts). */
export function readRunSummary(dir: string, identity: RunIdentity, log: string | null = null, opts: { ownRun?: boolean } = {}): RunSummary {
  const test = readTestJson(dir);
  const base = {
    ...identity,
    dir,
    log,
    hasReport: hasRunFile(dir, 'report'),
    replay: str(test?.['replay']),
    startedAt: str(test?.['startedAt']),
  };
  const hasHistory = hasRunEntry(dir, 'history');
  // A run's own file says which checkers decide; one without (never written by this version) is recomputed.
  const own = opts.ownRun ? readResultsJson(dir) : null;
  const verified =
    own !== null && own.deciding !== undefined
      ? { results: own, unchecked: null }
      : verifiedResults(dir, test, () => (hasHistory ? readRunHistory(dir) : null));
  if (verified === null) {
    return { ...base, ...NOT_FINISHED, error: `${join(dir, RESULTS_FILE)} is missing: the run did not finish` };
  }
  if (verified.results === null) return { ...base, ...NOT_FINISHED, error: `${dir}: ${verified.unchecked}`, unverified: true };
  return { ...base, ...summarizeResults(decided(verified.results)), error: null };
}

/** Recomputed results always say which checkers decide (runResults); the type of the file's reader cannot know it. */
function decided(results: StoredResults): DecidedResults {
  if (results.deciding === undefined) throw new Error('results without `deciding`: recomputed results always have it');
  return results as DecidedResults;
}

function num(v: Value | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function str(v: Value | undefined): string | null {
  return typeof v === 'string' ? v : null;
}
