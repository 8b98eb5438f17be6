/**
 * What a client's protocol violations do to a run's verdict, pure: the
 * `client-protocol` verdict (unknown, quoting the first violation and the
 * client's stderr) and its merge into the checkers' result. The runner adds
 * it after a run; `fencecheck check RUN_DIR` rebuilds it from test.json's
 * `clientViolations`.
 */
import { mergeVerdicts, type CheckerVerdict, type LockCheckResult } from '../../checkers/lock/verdict.js';

/** A broken protocol, with the tail of the client's stderr. */
export interface ProtocolViolation {
  client: string;
  problem: string;
  stderrTail: string[];
}

/** An `unknown` verdict when a client broke the protocol, else undefined. */
export function clientProtocolVerdict(violations: readonly ProtocolViolation[]): CheckerVerdict | undefined {
  const first = violations[0];
  if (!first) return undefined;
  const tail = first.stderrTail.length > 0 ? `; its stderr ended: ${first.stderrTail.slice(-3).join(' | ')}` : '';
  return {
    checker: 'client-protocol',
    valid: 'unknown',
    summary: `${violations.length} protocol violation(s); first: client ${first.client} ${first.problem}${tail}`,
    anomalies: [],
    anomalyCount: 0,
  };
}

/** The checkers' result with the client-protocol verdict added (it decides: a broken client's history proves nothing). */
export function addClientVerdict(result: LockCheckResult, client: CheckerVerdict | undefined): LockCheckResult {
  if (!client) return result;
  const verdicts = [...result.verdicts, client];
  const deciding = [...result.deciding, client.checker];
  return { verdicts, deciding, valid: mergeVerdicts(verdicts.filter((v) => deciding.includes(v.checker))) };
}
