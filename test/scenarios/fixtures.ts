/**
 * Hand-written scenario runs for the tests: results.json as the lock checkers
 * write it, histories with nemesis and client ops, and ScenarioRuns built
 * from them, so the aggregation and the renderers are tested without any
 * cluster.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Op } from '../../core/history/op.js';
import { summarizeResults, type RunSummary } from '../../src/compare/run-summary.js';
import type { StoredResults, Validity } from '../../core/run-files/results-json.js';
import { historyFacts } from '../../src/scenarios/history-facts.js';
import { incrementsOf, splitVerdicts, type ScenarioRun } from '../../src/scenarios/scenario-run.js';
import { madeTempDir } from '../support/temp-dirs.js';

/** A temporary directory removed when the test (or, made during collection, the file) ends. */
export function tempDir(label: string): string {
  return madeTempDir(`fencecheck-scenarios-${label}-`);
}

const CHECKER_OF: Record<string, string> = {
  'lost-update': 'lost-updates',
  'phantom-update': 'lost-updates',
  'stale-write': 'stale-writes',
  'token-regression': 'stale-writes',
  'interleaved-sections': 'interleaved-sections',
  'double-hold': 'mutual-exclusion',
  'maybe-double-hold': 'mutual-exclusion',
};

export interface FixtureOutcome {
  /** Anomalies by kind. */
  anomalies?: Record<string, number>;
  /** Make this checker unknown. */
  unknownChecker?: string;
  writes?: { accepted: number; rejected: number };
}

/** results.json of a lock-counter run: every checker present, invalid where it has anomalies. */
export function resultsOf(o: FixtureOutcome = {}): StoredResults {
  const names = ['lost-updates', 'stale-writes', 'interleaved-sections', 'mutual-exclusion'];
  const checkers = names.map((checker) => {
    const kinds = Object.entries(o.anomalies ?? {}).filter(([k]) => CHECKER_OF[k] === checker);
    const count = kinds.reduce((t, [, n]) => t + n, 0);
    const valid: Validity = checker === o.unknownChecker ? 'unknown' : count > 0 ? false : true;
    const anomalies = kinds.flatMap(([kind, n]) => Array.from({ length: n }, (_, i) => ({ kind, message: `${kind} ${i}`, processes: [0, 1], tokens: [1, 2], window: { start: 0, end: 1 }, opIndexes: [i] })));
    return { checker, valid, summary: `${count} anomalies`, anomalyCount: count, anomalies };
  });
  const w = o.writes ?? { accepted: 20, rejected: 0 };
  checkers.push({ checker: 'access-stats', valid: true, summary: 'writes', anomalyCount: 0, anomalies: [], stats: { 'write.accepted': w.accepted, 'write.rejected': w.rejected, 'write.unknown': 0 } } as never);
  const valid: Validity = checkers.some((c) => c.valid === false) ? false : checkers.some((c) => c.valid === 'unknown') ? 'unknown' : true;
  return { valid, durationMs: 15_000, checkers };
}

/** A ScenarioRun as readScenarioRun would build it from these results and this history. */
export function scenarioRunOf(seed: number, o: FixtureOutcome = {}, history: Op[] = nemesisOps(1), planned = 1, dir = `/runs/S1/S1-redis-none-s${seed}/20261129T120000`): ScenarioRun {
  const results = resultsOf(o);
  const summary: RunSummary = {
    id: `S1/redis-none#${seed}`,
    cellId: 'S1/redis-none',
    seed,
    dir,
    log: null,
    hasReport: true,
    ...summarizeResults(results),
    replay: `sudo npx fencecheck scenario run S1 --variant redis-none --first-seed ${seed}`,
    startedAt: '2026-11-29T12:00:00.000Z',
    error: null,
  };
  return { summary, ...splitVerdicts(results), facts: historyFacts(history, planned), increments: incrementsOf(results), findings: {}, sharedFrom: null };
}

let index = 0;
function op(fields: Partial<Op> & Pick<Op, 'process' | 'type' | 'f'>): Op {
  return { index: index++, time: index * 1000, value: null, ...fields };
}

/** `applied` pauses that were applied, then `skipped` that found nobody to pause. */
export function nemesisOps(applied: number, skipped = 0): Op[] {
  const ops: Op[] = [];
  for (let i = 0; i < applied; i++) {
    ops.push(op({ process: 'nemesis', type: 'invoke', f: 'pause', value: { target: 'c1', pid: 10 } }));
    ops.push(op({ process: 'nemesis', type: 'info', f: 'pause', value: { target: 'c1', pid: 10 } }));
    ops.push(op({ process: 'nemesis', type: 'info', f: 'resume', value: { target: 'c1', pid: 10 } }));
  }
  for (let i = 0; i < skipped; i++) ops.push(op({ process: 'nemesis', type: 'info', f: 'pause', value: { target: 'holder' }, error: 'no client to pause (nobody held the lock or was acquiring)' }));
  return ops;
}

export function clientOp(fields: Partial<Op> & Pick<Op, 'type' | 'f'>): Op {
  return op({ process: 0, ...fields });
}

/** The fields test.json must have (src/store/test-json.ts). */
export const RUN_IDENTITY = { name: 'x', backend: 'redis', resource: 'fence', workload: 'fenced-write', seed: 1 };

/** A run directory as runLockTest leaves it: test.json, history.jsonl, results.json (unless `results` is null). */
export function writeRunDir(runDir: string, history: Op[], results: StoredResults | null, test: Record<string, unknown> = { name: 'x', replay: 'fencecheck run --backend redis' }): string {
  mkdirSync(join(runDir, 'logs'), { recursive: true });
  writeFileSync(join(runDir, 'test.json'), JSON.stringify({ ...RUN_IDENTITY, ...test }, null, 2) + '\n');
  writeFileSync(join(runDir, 'history.jsonl'), history.map((o) => JSON.stringify(o)).join('\n') + (history.length > 0 ? '\n' : ''));
  if (results !== null) writeFileSync(join(runDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  return runDir;
}
