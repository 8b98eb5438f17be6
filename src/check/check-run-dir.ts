/**
 * Re-check a run directory (`fencecheck check results/<test>/latest`): read
 * its test.json through the validating reader and history.jsonl (tolerating
 * a last line cut by an interrupted run), analyse the history as the run
 * does (verdicts, evidence, outcome: run-results.ts), and rewrite
 * results.json atomically through the run store.
 */
import { join } from 'node:path';
import type { HistoryWarning } from '../history/history-warning.js';
import { readHistory } from '../history/read-history.js';
import { readResultsJson, type ResultsJson } from '../store/results-json.js';
import { HISTORY_FILE, RunStore } from '../store/run-store.js';
import { readTestJson, TEST_FILE, type StoredTest } from '../store/test-json.js';
import { RunFileError } from '../store/run-file-error.js';
import { runResults, type ClientFacts } from './run-results.js';
import type { ClientTokenKind } from '../../workloads/clients/protocol.js';
import type { ProtocolViolation } from '../../workloads/runner/client-verdict.js';
import type { ClientCrash } from '../../checkers/lock/evidence.js';

export { isRunDir } from './is-run-dir.js';

/** What a re-check read and wrote. */
export interface RunCheck {
  test: StoredTest;
  results: ResultsJson;
}

export async function checkRunDir(dir: string, onWarning?: (w: HistoryWarning) => void): Promise<RunCheck> {
  const test = readTestJson(dir);
  if (test === null) throw new RunFileError(join(dir, TEST_FILE), 'is missing');
  const history = await readHistory(join(dir, HISTORY_FILE), { format: 'jsonl', tolerateTruncatedTail: true, ...(onWarning ? { onWarning } : {}) });
  const previous = readPreviousResults(dir);
  const results = runResults(history, test, plannedWindowsOf(test, previous?.evidence?.faults.planned), previous?.durationMs ?? null, clientFactsOf(test));
  RunStore.open(dir).writeResults(results);
  return { test, results };
}

/** A results.json that cannot be read is about to be replaced: the re-check does not depend on it. */
function readPreviousResults(dir: string): ReturnType<typeof readResultsJson> {
  try {
    return readResultsJson(dir);
  } catch {
    return null;
  }
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

/** The fault windows the run planned: the script's length, else what its results.json recorded, else unknown (evidenceOf counts the attempts). */
function plannedWindowsOf(test: StoredTest, recorded: number | undefined): number | undefined {
  const script = test['script'];
  return Array.isArray(script) ? script.length : recorded;
}
