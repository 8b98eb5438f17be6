/**
 * A run directory's verdict is never taken from its results.json alone: it is
 * recomputed from the history (runResults: the same analysis the run did,
 * cheap next to the run) and the stored file must agree on everything a
 * verdict is made of: `valid`, the deciding checkers, each checker's verdict
 * and anomaly count, the outcome and the evidence. A file that does not is
 * refused (RunFileError, 254) naming the first difference, so an edited
 * `valid: true, outcome: safe` on an unsafe run reads as what it is in
 * `report`, `serve`, the index and `compare --merge` / `--expect` alike.
 *
 * A run copied without its history.jsonl cannot be checked, so its
 * results.json gives no verdict at all (deleting the history and editing the
 * file would otherwise pass): the caller gets the reason instead and counts
 * the run as unknown.
 */
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import { faultEvents } from '../../core/generator/fault-events.js';
import { join } from 'node:path';
import type { History } from '../../core/history/op.js';
import { parseResultsJson, RESULTS_FILE, type ResultsJson, type StoredResults } from '../../core/run-files/results-json.js';
import { readRunFile } from '../../runtime/store/read-run-files.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { describeContradiction, firstContradiction, type DeclaredFacts } from '../../core/analyse/declared-facts.js';
import { HISTORY_FILE } from '../../runtime/store/run-store.js';
import { TEST_FILE, type StoredTest } from '../../core/run-files/test-json.js';
import { runResults, type ClientFacts } from '../../core/analyse/run-results.js';
import type { ClientTokenKind } from '../../core/client-protocol.js';
import type { ProtocolViolation } from '../../core/client-protocol.js';
import type { ClientCrash } from '../../core/checkers/lock/evidence.js';

/** results.json as the run would write it for this history: runResults with what test.json and the earlier file recorded. */
export function recomputeResults(history: History, test: StoredTest, previous: StoredResults | null, testPath: string = TEST_FILE): ResultsJson {
  assertFactsFit(history, test, testPath);
  const script = test['script'];
  // The planned count only feeds the "N of M windows struck" line, never the outcome (core/checkers/lock/evidence.ts).
  const planned = Array.isArray(script)
    ? script.reduce<number>((n, w) => n + (typeof w === 'object' && w !== null && !Array.isArray(w) ? faultEvents([w as unknown as FaultWindow]) : 1), 0)
    : previous?.evidence?.faults.planned;
  const durationMs = typeof previous?.durationMs === 'number' ? previous.durationMs : null;
  return runResults(history, test, planned, durationMs, clientFactsOf(test));
}

/**
 * test.json's facts that choose the checkers (workload, resource, backend's token kind, lock client) held
 * against the history (core/analyse/declared-facts.ts): a contradiction is a RunFileError (254) naming the fact,
 * never a verdict computed under the wrong checkers.
 */
export function assertFactsFit(history: History, test: StoredTest, testPath: string = TEST_FILE): void {
  const facts: DeclaredFacts = {
    workload: test.workload,
    resource: test.resource,
    backend: test.backend,
    clientToken: test['clientToken'] as ClientTokenKind | undefined,
    foreignClient: test['client'] !== undefined,
  };
  const contradiction = firstContradiction(history, facts);
  if (contradiction !== null) throw new RunFileError(testPath, `\`${contradiction.fact}\` does not fit the history: ${describeContradiction(contradiction)}`);
}

/** A --client run's token kind and protocol violations, and any run's client crashes, as test.json recorded them (checked by its reader), so the re-check judges as the run did. */
function clientFactsOf(test: StoredTest): ClientFacts | undefined {
  if (test['clientToken'] === undefined && test['clientViolations'] === undefined && test['clientCrashes'] === undefined) return undefined;
  return {
    token: test['clientToken'] as ClientTokenKind | undefined,
    violations: (test['clientViolations'] ?? []) as unknown as ProtocolViolation[],
    crashes: (test['clientCrashes'] ?? []) as unknown as ClientCrash[],
  };
}

/** The first way `stored` disagrees with `fresh` on what makes the verdict, in words, or null. Fields an older file lacks are not compared. */
export function resultsDifference(stored: StoredResults, fresh: ResultsJson): string | null {
  const say = (field: string, a: unknown, b: unknown): string => `\`${field}\` is ${JSON.stringify(a)} in the file but ${JSON.stringify(b)} from the history`;
  if (stored.valid !== fresh.valid) return say('valid', stored.valid, fresh.valid);
  if (stored.outcome !== undefined && stored.outcome !== fresh.outcome) return say('outcome', stored.outcome, fresh.outcome);
  if (stored.deciding !== undefined && [...stored.deciding].sort().join() !== [...fresh.deciding].sort().join())
    return say('deciding', stored.deciding, fresh.deciding);
  const names = (list: readonly { checker: string }[]): string[] => list.map((c) => c.checker);
  if (names(stored.checkers).join() !== names(fresh.checkers).join()) return say('checkers', names(stored.checkers), names(fresh.checkers));
  for (const [i, c] of stored.checkers.entries()) {
    const f = fresh.checkers[i]!;
    if (c.valid !== f.valid) return say(`checkers[${i}].valid (${c.checker})`, c.valid, f.valid);
    const count = c.anomalyCount ?? c.anomalies?.length;
    if (count !== undefined && count !== f.anomalyCount) return say(`checkers[${i}].anomalyCount (${c.checker})`, count, f.anomalyCount);
  }
  if (stored.evidence !== undefined) {
    const e = stored.evidence;
    const pairs: [string, unknown, unknown][] = [
      ['evidence.faults.applied', e.faults.applied, fresh.evidence.faults.applied],
      ['evidence.faults.skipped', e.faults.skipped.length, fresh.evidence.faults.skipped.length],
      ['evidence.faults.failed', e.faults.failed.length, fresh.evidence.faults.failed.length],
      ['evidence.protection.doubleHolds', e.protection.doubleHolds, fresh.evidence.protection.doubleHolds],
      ['evidence.protection.refusals', e.protection.refusals, fresh.evidence.protection.refusals],
    ];
    for (const [field, a, b] of pairs) if (a !== b) return say(field, a, b);
  }
  return null;
}

/** Why a run without its history has no verdict (compare, the index): said wherever that run is counted. */
export const NO_HISTORY = `no ${HISTORY_FILE}: its ${RESULTS_FILE} cannot be checked`;

/** The recomputed results, or (no history.jsonl) none, with the reason: the file's word is never the verdict. */
export type VerifiedResults = { results: StoredResults; unchecked: null } | { results: null; unchecked: string };

/**
 * A run directory's results, checked against its history; null when it has no results.json (not finished).
 * Throws RunFileError when the file disagrees with the history, or when it cannot be checked for want of test.json.
 */
export function verifiedResults(dir: string, test: StoredTest | null, history: () => History | null): VerifiedResults | null {
  const file = readRunFile(dir, RESULTS_FILE);
  if (file === null) return null;
  const stored = parseResultsJson(file.text, file.path);
  const ops = history();
  if (ops === null) return { results: null, unchecked: NO_HISTORY };
  if (test === null) throw new RunFileError(file.path, `cannot be checked against the history: ${join(dir, TEST_FILE)} is missing`);
  const fresh = recomputeResults(ops, test, stored, join(dir, TEST_FILE));
  const difference = resultsDifference(stored, fresh);
  if (difference !== null) throw new RunFileError(file.path, `does not match the run's history: ${difference}; the file was edited or written by another tool`);
  // Through JSON and the reader, so callers get exactly what reading the file the run would write gives.
  return { results: parseResultsJson(JSON.stringify(fresh), file.path), unchecked: null };
}
