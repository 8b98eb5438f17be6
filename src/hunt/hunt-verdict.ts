/**
 * What a hunt (and a shrink) counts as the violation it looks for: the data
 * broken, that is a deciding data checker invalid (lost-updates, jobs,
 * stale-writes, interleaved-sections), or with the mutex workload the lock
 * itself. A run that is INVALID only by a lock checker (grant-tokens: a
 * non-persistent Redis restarted empty and gave token 1 again; mutual
 * exclusion: two holders at once) while the fence kept the data intact is
 * what a fence is for: the lock failed and the resource refused. The run's
 * own verdict stays as its checkers gave it; the hunt reads it as a near
 * miss, tested evidence, not a find (issue #18: "a violation of the data, or
 * of the lock with the mutex workload").
 */
import { faultEvents } from '../../core/generator/fault-events.js';
import { outcomeOf, type Outcome } from '../../core/checkers/lock/evidence.js';
import { storedOutcome } from '../../core/run-files/stored-outcome.js';
import type { StoredResults } from '../../core/run-files/results-json.js';
import { renewalShareOf, type LockWorkload } from '../../core/vocabulary.js';
import { DATA_CHECKERS, splitVerdicts } from '../scenarios/scenario-run.js';
import type { History } from '../../core/history/op.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { nearMissOf, type NearMiss } from './near-miss.js';
import { sessionServerOf } from '../../core/systems/registry.js';
import { workloadOf } from '../../core/workloads/registry.js';

export interface HuntVerdict {
  outcome: Outcome;
  /** The deciding data checkers that found the data broken, and those that found it intact (a violation says both). */
  data: DataVerdicts;
  /** The checkers that found the run invalid though its data is intact (empty when none). */
  lockOnly: string[];
}

export interface DataVerdicts {
  broken: string[];
  held: string[];
}

export function huntVerdict(results: StoredResults, workload: LockWorkload): HuntVerdict {
  const stored = storedOutcome(results).outcome;
  const dataVerdicts = dataCheckers(results);
  if (workloadOf(workload).lockIsTheSubject || stored !== 'unsafe' || results.evidence === undefined)
    return { outcome: stored, lockOnly: [], data: dataVerdicts };
  const data = splitVerdicts(results).data;
  if (data.valid === false) return { outcome: 'unsafe', lockOnly: [], data: dataVerdicts };
  const lockOnly = results.checkers
    .filter((c) => c.valid === false && (results.deciding === undefined || results.deciding.includes(c.checker)))
    .map((c) => c.checker);
  // No data checker decided (none ran): nothing says the data is intact, so the run stays as it is.
  if (data.valid === null) return { outcome: stored, lockOnly: [], data: dataVerdicts };
  return { outcome: outcomeOf(data.valid, results.evidence, workload), lockOnly, data: dataVerdicts };
}

// The deciding data checkers by verdict: a violation by stale-writes alone, say, left the counter whole.
function dataCheckers(results: StoredResults): DataVerdicts {
  const deciding = results.checkers.filter(
    (c) => DATA_CHECKERS.includes(c.checker) && (results.deciding === undefined || results.deciding.includes(c.checker)),
  );
  return { broken: deciding.filter((c) => c.valid === false).map((c) => c.checker), held: deciding.filter((c) => c.valid === true).map((c) => c.checker) };
}

/** A finished try as the hunt reads it, the real cluster's and the simulation's alike: its verdict and its near miss. */
export function readTryOf(
  history: History,
  results: StoredResults,
  options: RunOptions,
  log: (line: string) => void,
): { outcome: Outcome; miss: NearMiss; data: DataVerdicts } {
  const verdict = huntVerdict(results, options.workload);
  if (verdict.lockOnly.length > 0)
    log(
      `  the run is INVALID by ${verdict.lockOnly.join(', ')} only: the lock broke, the data did not (${options.workload} intact); a near miss, not the data violation the hunt looks for`,
    );
  return {
    outcome: verdict.outcome,
    data: verdict.data,
    miss: nearMissOf(
      history,
      results,
      faultEvents(options.script ?? []),
      options.ttlMs,
      renewalShareOf(options.backend) !== undefined,
      sessionServerOf(options.backend) !== undefined,
    ),
  };
}
