/**
 * A run's outcome for a person, as `fencecheck run` and `fencecheck check
 * RUN_DIR` print it: the word, why a valid run is untested, how many fault
 * windows struck, and what tested the protection.
 *
 *   outcome: UNTESTED (the lock never failed: no double hold, no refusal); 3 of 4 fault windows struck (1 skipped: no client to pause ...)
 *
 * Client processes that died without being asked end the line (only when there were any):
 *   ...; 0 double hold(s), 2 refusal(s); 3 client crash(es) (first: client2-8, signal SIGABRT)
 */
import { untestedWhy, type Evidence, type Outcome } from '../../core/checkers/lock/evidence.js';
import type { LockWorkload, Validity } from '../../core/checkers/lock/verdict.js';
import type { StoredResults, StoredVerdict } from '../../core/run-files/results-json.js';
import { storedOutcome } from '../../core/run-files/stored-outcome.js';
import { oneLine } from '../../core/printable.js';
import { formatWeight } from '../../core/checkers/lock/weight.js';
import { formatJobs } from './format-jobs.js';

const WORD: Record<Outcome, string> = { safe: 'safe', unsafe: 'UNSAFE', unknown: 'unknown', untested: 'UNTESTED' };

/** `checkers`: the run's verdicts, for the jobs workload's rate (format-jobs.ts) at the end of the line. */
export function formatOutcome(
  outcome: Outcome,
  valid: Validity,
  evidence: Evidence,
  workload: LockWorkload,
  checkers: readonly Pick<StoredVerdict, 'checker' | 'stats'>[] = [],
): string {
  const jobs = workload === 'jobs' ? formatJobs(checkers.find((c) => c.checker === 'jobs')?.stats) : undefined;
  const why = untestedWhy(valid, evidence, workload);
  const f = evidence.faults;
  const struck = f.planned === 0 ? 'no fault windows planned' : `${f.applied} of ${f.planned} fault windows struck (${percent(f.applied, f.planned)})`;
  const misses = [
    ...(f.skipped.length > 0 ? [`${f.skipped.length} skipped: ${f.skipped[0]!.why}${f.skipped.length > 1 ? ', …' : ''}`] : []),
    ...(f.failed.length > 0 ? [`${f.failed.length} failed: ${f.failed[0]!.error}${f.failed.length > 1 ? ', …' : ''}`] : []),
  ];
  const p = evidence.protection;
  // Skip reasons and errors come from the history (or a stored results.json): one line (core/printable.ts).
  return oneLine(
    `outcome: ${WORD[outcome]}${why === undefined ? '' : ` (${why})`}; ${struck}${misses.length > 0 ? ` [${misses.join('; ')}]` : ''}; ` +
      `${p.doubleHolds} double hold(s), ${p.refusals} refusal(s)` +
      (p.overlaps !== undefined ? `, ${p.overlaps} section(s) overlapping another with no lock` : '') +
      crashesOf(evidence) +
      // What one safe run is worth (core/checkers/lock/weight.ts): little alone, which is the point of saying it.
      (outcome === 'safe' ? `; ${formatWeight(1, p.doubleHolds + p.refusals, 'run')}` : '') +
      (jobs === undefined ? '' : `; ${jobs}`),
  );
}

function crashesOf(evidence: Evidence): string {
  const c = evidence.clients;
  if (c === undefined || c.crashes === 0) return '';
  return `; ${c.crashes} client crash(es)${c.first ? ` (first: ${c.first.client}, ${c.first.exit})` : ''}`;
}

function percent(part: number, whole: number): string {
  return `${Math.round((100 * part) / whole)}%`;
}

/** The outcome line of a results.json as read back; one from before evidence was recorded says so (untested unless already unsafe or unknown). */
export function formatStoredOutcome(results: StoredResults, workload: LockWorkload): string {
  if (results.outcome !== undefined && results.evidence !== undefined)
    return formatOutcome(results.outcome, results.valid, results.evidence, workload, results.checkers);
  const { outcome, why } = storedOutcome(results);
  return oneLine(`outcome: ${WORD[outcome]}${why === null ? '' : ` (${why})`}`);
}
