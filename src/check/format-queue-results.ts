/**
 * A queue run's verdict as lines for a person (pure): each checker's line, the
 * first ten anomalies, the outcome with why it is untested. `run --workload
 * queue` prints them after a run, `check RUN_DIR` after a re-check.
 */
import type { QueueResults } from '../../core/queue/queue-outcome.js';

export function formatQueueResults(results: QueueResults): string[] {
  const lines = results.checkers.map((c) => `${c.checker}: ${c.valid === true ? 'valid' : c.valid === false ? 'INVALID' : 'unknown'}: ${c.summary}`);
  for (const a of results.checkers.flatMap((c) => c.anomalies).slice(0, 10)) lines.push(`  ${a.kind}: ${a.message}`);
  lines.push(`outcome: ${results.outcome}${results.untestedWhy !== null ? ` (${results.untestedWhy})` : ''}`);
  return lines;
}
