/**
 * What a client's protocol violations and crashes do to a run's verdict,
 * pure: the `client-protocol` verdict (unknown, quoting the first violation
 * and the client's stderr), the `client-crashes` verdict (unknown, for any
 * client, built-in or foreign, that died without being asked), and their
 * merge into the checkers' result. The runner adds them after a run;
 * `fencecheck check RUN_DIR` rebuilds them from test.json's
 * `clientViolations` and `clientCrashes`.
 */
import type { ClientCrash } from '../checkers/lock/evidence.js';
import { mergeVerdicts, type CheckerVerdict, type LockCheckResult } from '../checkers/lock/verdict.js';
import type { ProtocolViolation } from '../client-protocol.js';

/** An `unknown` verdict when a client broke the protocol, else undefined. */
export function clientProtocolVerdict(violations: readonly ProtocolViolation[]): CheckerVerdict | undefined {
  const first = violations[0];
  return (
    first && unknownVerdict('client-protocol', `${violations.length} protocol violation(s); first: client ${first.client} ${first.problem}`, first.stderrTail)
  );
}

/**
 * An `unknown` verdict when a client process crashed, else undefined. Unknown, not invalid: the crashed client's
 * pending op is indeterminate, which the checkers allow for, so an anomaly they find still stands (invalid wins
 * the merge); but a run whose clients kept dying tested crash and restart, not the client riding out the faults,
 * so it is never called safe.
 */
export function clientCrashVerdict(crashes: readonly ClientCrash[]): CheckerVerdict | undefined {
  const first = crashes[0];
  return (
    first &&
    unknownVerdict('client-crashes', `${crashes.length} client process(es) died without being asked; first: ${first.client} (${first.exit})`, first.stderrTail)
  );
}

/** A deciding verdict of unknown about a client, quoting the end of its stderr. */
function unknownVerdict(checker: string, summary: string, stderrTail: readonly string[]): CheckerVerdict {
  const tail = stderrTail.length > 0 ? `; its stderr ended: ${stderrTail.slice(-3).join(' | ')}` : '';
  return { checker, valid: 'unknown', summary: `${summary}${tail}`, anomalies: [], anomalyCount: 0 };
}

/** The checkers' result with the client verdicts added (they decide: a broken or crashing client's history proves no safety). */
export function addClientVerdict(result: LockCheckResult, ...client: (CheckerVerdict | undefined)[]): LockCheckResult {
  const added = client.filter((v): v is CheckerVerdict => v !== undefined);
  if (added.length === 0) return result;
  const verdicts = [...result.verdicts, ...added];
  const deciding = [...result.deciding, ...added.map((v) => v.checker)];
  return { verdicts, deciding, valid: mergeVerdicts(verdicts.filter((v) => deciding.includes(v.checker))) };
}
