/**
 * analyseRun: a lock run's history to its results.json (pure). The workload's
 * checkers give the verdict; the history's nemesis ops and the checkers' holds
 * give the evidence (what the faults did, what tested the protection); both
 * give the outcome (safe only with evidence, else untested). The runner and
 * `fencecheck check RUN_DIR` both call it, so a re-check writes what the run
 * wrote. `plannedWindows` undefined: see evidenceOf.
 */
import { evidenceOf, outcomeOf } from '../../checkers/lock/evidence.js';
import { checkersFor } from '../../checkers/lock/registry.js';
import { runCheckers, type LockWorkload, type ResourceMode } from '../../checkers/lock/verdict.js';
import type { History } from '../history/op.js';
import type { ResultsJson } from '../store/results-json.js';
import type { LockBackend } from '../../workloads/clients/protocol.js';
import { tokenKindOf } from '../../workloads/runner/run-options.js';

export interface RunKind {
  workload: LockWorkload;
  resource: ResourceMode;
  backend: LockBackend;
}

export function analyseRun(history: History, run: RunKind, plannedWindows: number | undefined, durationMs: number | null): ResultsJson {
  const checked = runCheckers(checkersFor(run.workload), history, { ...run, tokenKind: tokenKindOf(run.backend) });
  const evidence = evidenceOf(history, checked.verdicts, plannedWindows);
  return {
    valid: checked.valid,
    deciding: checked.deciding,
    durationMs,
    checkers: checked.verdicts,
    outcome: outcomeOf(checked.valid, evidence, run.workload),
    evidence,
  };
}
