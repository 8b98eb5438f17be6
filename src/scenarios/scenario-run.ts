/**
 * One finished scenario run, as the debate table needs it: compare's summary
 * of the run (status, anomalies by kind, writes, replay, directory) plus its
 * verdict split in two properties, because they differ exactly where the
 * debate is interesting (a fence keeps the data safe while the lock itself
 * was held twice):
 *
 *   lock  mutual-exclusion and mutex-linearizable: the lock was held twice
 *   data  lost-updates, jobs, stale-writes, interleaved-sections: the resource,
 *         those of them that decide the run (a stale write the database's own
 *         control made harmless, or one that duplicated no job, is information)
 *
 * `splitVerdicts` is pure over a parsed results.json; `readScenarioRun` reads
 * a run directory (a missing results.json makes the run `unknown`, never
 * safe).
 */
import { mergeVerdicts } from '../../core/checkers/lock/verdict.js';
import { anomaliesByKind, readRunSummary, toolFailed, type RunIdentity, type RunSummary } from '../compare/run-summary.js';
import { readRunDir } from '../report/read-run-dir.js';
import type { StoredResults, Validity } from '../../core/run-files/results-json.js';
import { readClientFindings, type ClientFindings } from './client-findings.js';
import { historyFacts, type HistoryFacts } from './history-facts.js';

export const LOCK_CHECKERS: readonly string[] = ['mutual-exclusion', 'mutex-linearizable'];
export const DATA_CHECKERS: readonly string[] = ['lost-updates', 'jobs', 'stale-writes', 'interleaved-sections'];

export interface PropertyVerdict {
  /** null: no checker of this property ran (the run failed, or the workload has none). */
  valid: Validity | null;
  /** Anomalies by kind from this property's checkers. */
  kinds: Record<string, number>;
}

export interface ScenarioRun {
  /** As `fencecheck compare` summarizes a run; `replay` is the scenario command. */
  summary: RunSummary;
  lock: PropertyVerdict;
  data: PropertyVerdict;
  facts: HistoryFacts | null;
  /** Acknowledged increments and how many of them the final counter lost (lost-updates' stats), when it counted. */
  increments: { acked: number; lost: number } | null;
  /** What a foreign client reported about its library on stderr (client-findings.ts); empty for the built-in one. */
  findings: ClientFindings;
  /** `S1/redis-fence` when the run was made for another row with the same options. */
  sharedFrom: string | null;
}

const NOT_CHECKED: PropertyVerdict = { valid: null, kinds: {} };

/** A run's checkers as two verdicts, lock and data. */
export function splitVerdicts(results: StoredResults | null): { lock: PropertyVerdict; data: PropertyVerdict } {
  if (results === null) return { lock: NOT_CHECKED, data: NOT_CHECKED };
  const part = (names: readonly string[], decidingOnly: boolean): PropertyVerdict => {
    const decides = (name: string): boolean => !decidingOnly || results.deciding === undefined || results.deciding.includes(name);
    const checkers = results.checkers.filter((c) => names.includes(c.checker) && decides(c.checker));
    return { valid: checkers.length === 0 ? null : mergeVerdicts(checkers), kinds: anomaliesByKind(checkers) };
  };
  return { lock: part(LOCK_CHECKERS, false), data: part(DATA_CHECKERS, true) };
}

/** A run the tool failed to make or finish: unknown on both counts, with the reason. */
export function failedRun(
  identity: RunIdentity,
  replay: string,
  error: string,
  dir: string | null,
  durationMs: number,
  sharedFrom: string | null = null,
): ScenarioRun {
  const summary: RunSummary = {
    ...identity,
    dir,
    log: null,
    hasReport: false,
    ...toolFailed(durationMs),
    replay,
    startedAt: null,
    error,
  };
  return { summary, ...splitVerdicts(null), facts: null, increments: null, findings: {}, sharedFrom };
}

/** Read a run directory: compare's summary, the split verdicts and the history's facts. */
export async function readScenarioRun(runDir: string, identity: RunIdentity, plannedWindows: number, sharedFrom: string | null = null): Promise<ScenarioRun> {
  // The run this scenario has just made: runLockTest wrote its results.json from this history (no second analysis).
  const summary = readRunSummary(runDir, identity, null, { ownRun: true });
  const run = await readRunDir(runDir, { ownRun: true });
  return {
    summary,
    ...splitVerdicts(run.results),
    facts: historyFacts(run.history, plannedWindows),
    increments: incrementsOf(run.results),
    findings: readClientFindings(runDir),
    sharedFrom,
  };
}

/** lost-updates' count of acknowledged increments and of those lost, when the final read let it count them. */
export function incrementsOf(results: StoredResults | null): { acked: number; lost: number } | null {
  const stats = results?.checkers.find((c) => c.checker === 'lost-updates')?.stats;
  const acked = stats?.['ackedWrites'];
  const lost = stats?.['lost'];
  const final = stats?.['final'];
  return typeof acked === 'number' && typeof lost === 'number' && typeof final === 'number' ? { acked, lost } : null;
}
