/**
 * storedOutcome: the outcome of a run as its results.json records it, for
 * readers (compare, `fencecheck run`'s verdict line). A results.json written
 * before fencecheck recorded evidence has no outcome: it is untested unless
 * its verdict already says unsafe or unknown. Untested is never safe.
 */
import type { Outcome } from '../checkers/lock/evidence.js';
import { untestedWhy } from '../checkers/lock/evidence.js';
import { EXIT } from '../errors.js';
import type { StoredResults } from './results-json.js';

export const NO_EVIDENCE = 'results.json records no evidence that the faults struck (re-check with `fencecheck check RUN_DIR`)';

export interface StoredOutcome {
  outcome: Outcome;
  /** Why the run is untested, when it is. */
  why: string | null;
}

export function storedOutcome(results: Pick<StoredResults, 'valid' | 'outcome' | 'evidence'>): StoredOutcome {
  if (results.valid === false) return { outcome: 'unsafe', why: null };
  if (results.valid === 'unknown') return { outcome: 'unknown', why: null };
  if (results.outcome === undefined || results.evidence === undefined) return { outcome: 'untested', why: NO_EVIDENCE };
  if (results.outcome !== 'untested') return { outcome: results.outcome, why: null };
  // A run is untested on the mutex workload only when no fault struck, which the data workloads' reasons cover first.
  return { outcome: 'untested', why: untestedWhy(results.valid, results.evidence, 'lock-counter') ?? 'no evidence that the faults struck' };
}

/** The exit code of a run's verdict, as `run`, `check RUN_DIR` and `report` give it: 1 invalid, 2 unknown, 3 untested, 0 safe. */
export function outcomeExitCode(results: Pick<StoredResults, 'valid' | 'outcome' | 'evidence'>): number {
  const { outcome } = storedOutcome(results);
  return outcome === 'unsafe' ? EXIT.invalid : outcome === 'unknown' ? EXIT.unknown : outcome === 'untested' ? EXIT.untested : EXIT.valid;
}
