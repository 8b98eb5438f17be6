/**
 * A queue run's results (pure): the total-queue verdict of its history, the
 * evidence that the danger occurred, and the outcome. Untested is not safe:
 * a valid run whose stalls never struck, or in which the queue never handed
 * a job out twice, has not tested what a remedy is for.
 */
import type { History } from '../history/op.js';
import { checkQueue } from '../checkers/queue/total-queue.js';
import { faultsOf, type Evidence, type Outcome } from '../checkers/lock/evidence.js';
import type { ResultsJson } from '../run-files/results-json.js';

export interface QueueResults extends ResultsJson {
  /** Why the run is untested, when it is. */
  untestedWhy: string | null;
}

/**
 * `protocolViolations`: the lines that broke the queue protocol during the run, which the history does not hold;
 * a re-check (`fencecheck check RUN_DIR`) passes the run's own summary of them instead, as `carriedProtocol`.
 */
export function queueResults(
  history: History,
  plannedStalls: number,
  durationMs: number | null,
  protocolViolations: readonly string[],
  carriedProtocol?: string,
): QueueResults {
  const verdict = checkQueue(history);
  const stats = verdict.stats ?? {};
  const evidence: Evidence = {
    faults: faultsOf(history, plannedStalls),
    // The lock failed when the queue handed a job out again; the protection said no when the resource refused an effect.
    protection: { doubleHolds: stats['redelivered'] ?? 0, refusals: stats['wasted'] ?? 0 },
  };
  const checkers = [verdict];
  const protocol =
    protocolViolations.length > 0 ? `${protocolViolations.length} line(s) broke the queue protocol; first: ${protocolViolations[0]}` : carriedProtocol;
  if (protocol !== undefined) checkers.push({ checker: 'queue-protocol', valid: 'unknown', summary: protocol, anomalies: [], anomalyCount: 0 });
  const valid = verdict.valid === false ? false : protocol !== undefined ? 'unknown' : verdict.valid;
  const untestedWhy = valid === true ? whyUntested(evidence, plannedStalls, serverKills(history)) : null;
  const outcome: Outcome = valid === false ? 'unsafe' : valid === 'unknown' ? 'unknown' : untestedWhy !== null ? 'untested' : 'safe';
  return { valid, deciding: checkers.map((c) => c.checker), durationMs, checkers, outcome, evidence, untestedWhy };
}

/** Kills of the queue's server that took effect (server-kill): each is the danger itself, whatever the queue did after. */
function serverKills(history: History): number {
  return history.filter(
    (op) =>
      op.process === 'nemesis' &&
      op.f === 'kill' &&
      op.type === 'info' &&
      (op.error === undefined || op.error === null) &&
      typeof op.value === 'object' &&
      op.value !== null &&
      'node' in op.value,
  ).length;
}

function whyUntested(e: Evidence, planned: number, serverKilled: number): string | null {
  if (planned === 0)
    return 'no fault was asked for (--nemesis client-pause stalls a worker holding a job, client-kill kills one, server-kill the queue server)';
  if (e.faults.applied === 0) return `none of the ${planned} fault window(s) struck a worker holding a job`;
  if (e.protection.doubleHolds === 0 && serverKilled === 0)
    return `${e.faults.applied} fault(s) struck workers holding jobs, but the queue never handed a job out twice: a stall was shorter than its lock, or it waited (a killed worker's job then lands with its restart, or after the run)`;
  return null;
}
