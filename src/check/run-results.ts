/**
 * runResults: a lock run's history to its results.json (pure). The workload's
 * checkers give the verdict (analyseRun); the history's nemesis ops and the
 * checkers' holds give the evidence (what the faults did, what tested the
 * protection); both give the outcome (safe only with evidence, else
 * untested). The runner and `fencecheck check RUN_DIR` both call it, so a
 * re-check writes what the run wrote.
 */
import { evidenceOf, outcomeOf } from '../../checkers/lock/evidence.js';
import type { History } from '../history/op.js';
import type { ResultsJson } from '../store/results-json.js';
import { analyseRun } from '../../workloads/runner/analyse-run.js';
import type { RunOptions } from '../../workloads/runner/run-options.js';

/** `plannedWindows` undefined (a run re-checked without its plan): evidenceOf counts the attempted faults. */
export function runResults(history: History, o: Pick<RunOptions, 'workload' | 'resource' | 'backend'>, plannedWindows: number | undefined, durationMs: number | null): ResultsJson {
  const checked = analyseRun(history, o);
  const evidence = evidenceOf(history, checked.verdicts, plannedWindows);
  return {
    valid: checked.valid,
    deciding: checked.deciding,
    durationMs,
    checkers: checked.verdicts,
    outcome: outcomeOf(checked.valid, evidence, o.workload),
    evidence,
  };
}
