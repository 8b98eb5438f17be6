/**
 * Scenario runs for the tests, without any cluster: histories of client
 * episodes (episode-runs.ts) and nemesis ops, the results the product's
 * analysis makes of them, and the ScenarioRuns built from both, so the
 * aggregation and the renderers are tested on verdicts the checkers computed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Op } from '../../core/history/op.js';
import { summarizeResults, type DecidedResults, type RunSummary } from '../../src/compare/run-summary.js';
import { parseResultsJson, type StoredResults } from '../../core/run-files/results-json.js';
import { episodeHistory, episodeResults, type Episodes } from './episode-runs.js';
import { historyFacts } from '../../src/scenarios/history-facts.js';
import { incrementsOf, splitVerdicts, type ScenarioRun } from '../../src/scenarios/scenario-run.js';
import { madeTempDir } from '../support/temp-dirs.js';

/** A temporary directory removed when the test (or, made during collection, the file) ends. */
export function tempDir(label: string): string {
  return madeTempDir(`fencecheck-scenarios-${label}-`);
}

/** A quiet run: four sections, one holder at a time, every write accepted. */
export const QUIET: Episodes = { clean: 4 };

/** results.json as the product writes it for a lock-counter run of these episodes beside `extra` ops (episode-runs.ts), read back as the store reads it. */
export function resultsOf(e: Episodes = QUIET, extra: readonly Op[] = nemesisOps(1), planned = 1): DecidedResults {
  const stored = parseResultsJson(JSON.stringify(episodeResults(e, extra, planned)), 'results.json');
  // The product's results always say which checkers decide (runResults).
  if (stored.deciding === undefined) throw new Error('runResults wrote no `deciding`');
  return { ...stored, deciding: stored.deciding };
}

/** A ScenarioRun as readScenarioRun would build it from a run of these episodes: results, facts and increments all from one history. */
export function scenarioRunOf(
  seed: number,
  e: Episodes = QUIET,
  extra: readonly Op[] = nemesisOps(1),
  planned = 1,
  dir = `/runs/S1/S1-redis-none-s${seed}/20261129T120000`,
): ScenarioRun {
  const history = episodeHistory(e, extra);
  const results = resultsOf(e, extra, planned);
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
  for (let i = 0; i < skipped; i++)
    ops.push(
      op({ process: 'nemesis', type: 'info', f: 'pause', value: { target: 'holder' }, error: 'no client to pause (nobody held the lock or was acquiring)' }),
    );
  return ops;
}

export function clientOp(fields: Partial<Op> & Pick<Op, 'type' | 'f'>): Op {
  return op({ process: 0, ...fields });
}

/** The fields test.json must have (core/run-files/test-json.ts). */
export const RUN_IDENTITY = { name: 'x', backend: 'redis', resource: 'fence', workload: 'fenced-write', seed: 1 };

/** A run directory as runLockTest leaves it: test.json, history.jsonl, results.json (unless `results` is null). */
export function writeRunDir(
  runDir: string,
  history: Op[],
  results: StoredResults | null,
  test: Record<string, unknown> = { name: 'x', replay: 'fencecheck run --backend redis' },
): string {
  mkdirSync(join(runDir, 'logs'), { recursive: true });
  writeFileSync(join(runDir, 'test.json'), JSON.stringify({ ...RUN_IDENTITY, ...test }, null, 2) + '\n');
  writeFileSync(join(runDir, 'history.jsonl'), history.map((o) => JSON.stringify(o)).join('\n') + (history.length > 0 ? '\n' : ''));
  if (results !== null) writeFileSync(join(runDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  return runDir;
}
