/**
 * Hand-written run directories for the compare tests: test.json and
 * results.json as runLockTest writes them (docs/run-directory.md), no history,
 * no cluster. `fakeRunOne` stands in for runLockTest: it writes such a run
 * directory where the real one would, with an outcome chosen per run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { outcomeOf, type Evidence } from '../../checkers/lock/evidence.js';
import type { RunOptions } from '../../workloads/runner/run-options.js';
import { DEFAULTS, replayCommand } from '../../workloads/runner/run-options.js';
import type { CompareSpec } from '../../src/compare/compare-spec.js';
import type { RunOne } from '../../src/compare/run-compare.js';
import { madeTempDir } from '../support/temp-dirs.js';

/** A temporary directory removed when the test (or, made during collection, the file) ends. */
export function tempDir(label: string): string {
  return madeTempDir(`fencecheck-compare-${label}-`);
}

export interface FixtureOutcome {
  valid: true | false | 'unknown';
  /** Anomalies by kind, all from one checker per kind. */
  anomalies?: Record<string, number>;
  writes?: { accepted: number; rejected: number; unknown?: number };
  durationMs?: number;
  /**
   * What the faults did (default: 2 of 2 windows struck, 1 double hold, the
   * rejected writes as refusals); `legacy` writes a results.json from before
   * evidence was recorded (no deciding, outcome or evidence).
   */
  evidence?: { planned?: number; applied?: number; doubleHolds?: number; refusals?: number } | 'legacy';
}

const CHECKER_OF: Record<string, string> = { 'lost-update': 'lost-updates', 'stale-write': 'stale-writes', 'double-hold': 'mutual-exclusion' };

export function resultsJson(o: FixtureOutcome): object {
  const checkers: object[] = Object.entries(o.anomalies ?? {}).map(([kind, n]) => ({
    checker: CHECKER_OF[kind] ?? kind,
    valid: false,
    summary: `${n} ${kind}`,
    anomalyCount: n,
    anomalies: Array.from({ length: Math.min(n, 100) }, (_, i) => ({ kind, message: `${kind} ${i}`, processes: [1, 2], tokens: [1, 2], window: { start: 0, end: 1 }, opIndexes: [i] })),
  }));
  if (o.valid === 'unknown') checkers.push({ checker: 'mutex-linearizable', valid: 'unknown', summary: 'timed out after 10 s', anomalyCount: 0, anomalies: [] });
  const w = o.writes ?? { accepted: 10, rejected: 0 };
  const useless = w.accepted === 0 && w.rejected > 0;
  checkers.push({
    checker: 'access-stats',
    valid: true,
    summary: 'writes',
    anomalyCount: 0,
    anomalies: [],
    stats: { 'write.accepted': w.accepted, 'write.rejected': w.rejected, 'write.unknown': w.unknown ?? 0, ...(useless ? { useless: 1 } : {}) },
  });
  const base = { valid: o.valid, durationMs: o.durationMs ?? 1000, checkers };
  if (o.evidence === 'legacy') return base;
  const e = o.evidence ?? {};
  const evidence: Evidence = {
    faults: { planned: e.planned ?? 2, applied: e.applied ?? 2, skipped: [], failed: [] },
    protection: { doubleHolds: e.doubleHolds ?? 1, refusals: e.refusals ?? w.rejected },
  };
  // Mutual exclusion reports on a data workload but does not decide it (checkers/lock/mutual-exclusion.ts).
  const deciding = checkers.map((c) => (c as { checker: string }).checker).filter((c) => c !== 'mutual-exclusion');
  return { ...base, deciding, outcome: outcomeOf(o.valid, evidence, 'lock-counter'), evidence };
}

/** A run directory with test.json and results.json; returns its path. */
export function writeRunDir(runDir: string, options: RunOptions, outcome: FixtureOutcome | null, startedAt = '2026-11-29T12:00:00.000Z'): string {
  mkdirSync(join(runDir, 'logs'), { recursive: true });
  const test = { name: `${options.backend}-${options.resource}-${options.workload}`, ...options, startedAt, replay: replayCommand(options) };
  writeFileSync(join(runDir, 'test.json'), JSON.stringify(test, null, 2) + '\n');
  if (outcome !== null) writeFileSync(join(runDir, 'results.json'), JSON.stringify(resultsJson(outcome), null, 2) + '\n');
  return runDir;
}

export function runOptions(over: Partial<RunOptions> & Pick<RunOptions, 'backend' | 'resource'>): RunOptions {
  return { ...DEFAULTS, workload: 'lock-counter', ...over };
}

export function spec(over: Partial<CompareSpec> = {}): CompareSpec {
  const { nemesis: _n, seed: _s, resultsDir: _r, ...run } = DEFAULTS;
  return { backends: ['redis', 'redlock'], resources: ['none', 'fence'], nemeses: ['client-pause', 'kill'], seeds: [1, 2], workload: 'lock-counter', run: { ...run, timeLimitS: 10 }, ...over };
}

/**
 * runLockTest's stand-in: writes a run directory under `resultsDir` with the
 * outcome `decide` gives, or throws what it throws. Records every call.
 */
export function fakeRunOne(decide: (o: RunOptions) => FixtureOutcome): RunOne & { calls: RunOptions[] } {
  const calls: RunOptions[] = [];
  const fn = async (o: RunOptions, hooks: { log: (line: string) => void }) => {
    calls.push(o);
    hooks.log(`fake run ${o.backend} ${o.resource} ${o.nemesis.join(',')} seed ${o.seed}`);
    const outcome = decide(o);
    const runDir = writeRunDir(resolve(o.resultsDir, `${o.backend}-${o.resource}-${o.workload}`, `run${calls.length}`), o, outcome);
    return { valid: outcome.valid, runDir, durationMs: outcome.durationMs ?? 1000 };
  };
  return Object.assign(fn, { calls });
}

/** A clock that moves only when told: every call returns the same time until `tick`. */
export function fakeClock(start = Date.parse('2026-11-29T12:00:00Z')): { now: () => number; tick: (ms: number) => void } {
  let t = start;
  return { now: () => t, tick: (ms) => void (t += ms) };
}

/**
 * These fixture runs have no history.jsonl (results.json written by hand), so every report over them warns that
 * their results could not be checked against a history (gather-matrix.ts); tests about other warnings leave that
 * one out. merge.test.ts asserts it is said.
 */
export function withoutUnverified(warnings: readonly string[]): string[] {
  return warnings.filter((w) => !/ no history\.jsonl, so /.test(w));
}
