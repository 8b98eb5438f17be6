/**
 * runResults: a lock run's history to its results.json (pure). The workload's
 * checkers give the verdict (analyseRun); the history's nemesis ops and the
 * checkers' holds give the evidence (what the faults did, what tested the
 * protection); both give the outcome (safe only with evidence, else
 * untested). The runner and `fencecheck check RUN_DIR` both call it, so a
 * re-check writes what the run wrote.
 */
import { evidenceOf, outcomeOf, type ClientCrash } from '../checkers/lock/evidence.js';
import type { History } from '../history/op.js';
import type { ResultsJson } from '../run-files/results-json.js';
import { analyseRun } from './analyse-run.js';
import { addClientVerdict, clientCrashVerdict, clientProtocolVerdict } from './client-verdict.js';
import { type ProtocolViolation } from '../client-protocol.js';
import type { RunOptions } from '../plan/run-options.js';
import type { ClientTokenKind } from '../client-protocol.js';

/**
 * What the run knew of its client processes: a foreign client's (`--client`) token kind and protocol violations
 * (none for the built-in client: token undefined takes the backend's), and every client's crashes.
 */
export interface ClientFacts {
  token?: ClientTokenKind | undefined;
  violations: readonly ProtocolViolation[];
  crashes?: readonly ClientCrash[];
}

/**
 * `plannedWindows` undefined (a run re-checked without its plan): evidenceOf counts the attempted faults.
 * `client`: the checkers use its token kind ('none' has no order to check, as 'unique'), a client
 * that broke the protocol adds a deciding `client-protocol` verdict of unknown, and crashed client
 * processes a deciding `client-crashes` verdict of unknown, counted in the evidence.
 */
export function runResults(
  history: History,
  o: Pick<RunOptions, 'workload' | 'resource' | 'backend'>,
  plannedWindows: number | undefined,
  durationMs: number | null,
  client?: ClientFacts,
): ResultsJson {
  const crashes = client?.crashes ?? [];
  const checked = addClientVerdict(analyseRun(history, o, client?.token), clientProtocolVerdict(client?.violations ?? []), clientCrashVerdict(crashes));
  const evidence = evidenceOf(history, checked.verdicts, plannedWindows, crashes);
  return {
    valid: checked.valid,
    deciding: checked.deciding,
    durationMs,
    checkers: checked.verdicts,
    outcome: outcomeOf(checked.valid, evidence, o.workload),
    evidence,
  };
}
