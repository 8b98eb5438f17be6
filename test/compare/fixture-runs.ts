/**
 * Run directories for the compare tests as runLockTest writes them
 * (docs/run-directory.md), no cluster: a lock-counter history made to show
 * the anomalies asked for, and the results.json the real checkers give for it
 * (runResults: verdicts, deciding, evidence, outcome), so every verdict comes
 * from the checkers and nothing is computed here by hand. `fakeRunOne` stands in for runLockTest: it writes such a run
 * directory where the real one would, with an outcome chosen per run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runResults } from '../../core/analyse/run-results.js';
import type { DecidedResults } from '../../src/compare/run-summary.js';
import { parseResultsJson } from '../../core/run-files/results-json.js';
import type { History } from '../../core/history/op.js';
import { call, lockHistory, nemesis, section, type Ev } from '../lock-checkers/lock-history.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { DEFAULTS, replayCommand } from '../../core/plan/run-options.js';
import type { CompareSpec } from '../../src/compare/compare-spec.js';
import type { RunOne } from '../../src/compare/run-compare.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { tokenKindOf } from '../../core/vocabulary.js';

/** A temporary directory removed when the test (or, made during collection, the file) ends. */
export function tempDir(label: string): string {
  return madeTempDir(`fencecheck-compare-${label}-`);
}

export interface FixtureOutcome {
  valid: true | false | 'unknown';
  /** Anomalies by kind: `lost-update`, `stale-write`, `double-hold` (mutual exclusion: information on a counter, never deciding). */
  anomalies?: Record<string, number>;
  writes?: { accepted: number; rejected: number; unknown?: number };
  durationMs?: number;
  /**
   * What the history shows the faults did (default: 2 of 2 windows struck, 1
   * double hold on a valid run, the rejected writes as refusals; `refusals`
   * sets how many writes are rejected).
   */
  evidence?: { planned?: number; applied?: number; doubleHolds?: number; refusals?: number };
}

/**
 * A lock-counter history whose checkers find what `o` asks for (built with test/lock-checkers/lock-history.ts):
 * sequential sections that each read the counter and write it plus one (`writes.accepted` of them), one of
 * them written again by a second holder per extra lost update (two acknowledged writes of one value), a final
 * read that falls short when updates were lost (lost-updates: one anomaly for the shortfall, one per pair); a
 * holder whose write is accepted after the lock went to another per stale write; rejected writes (the fence
 * refusing), the first `doubleHolds` of them by a second holder inside another's section; `info` writes for
 * unknown ones; `applied` pause/resume windows of the nemesis. `valid: 'unknown'`: no final read, so the lost
 * updates cannot be counted.
 */
export function fixtureHistory(o: FixtureOutcome): History {
  const e = o.evidence ?? {};
  const given = o.writes ?? { accepted: 10, rejected: 0 };
  const w = { ...given, rejected: e.refusals ?? given.rejected };
  const lost = o.anomalies?.['lost-update'] ?? 0;
  const stale = o.anomalies?.['stale-write'] ?? 0;
  const doubleHolds = e.doubleHolds ?? o.anomalies?.['double-hold'] ?? (o.valid === true ? 1 : 0);
  const evs: Ev[][] = [];
  let counter = 0;
  let applied = 0;
  let t = 100;
  let token = 1;
  const read = (p: number, at: number, value: number): Ev[] => call(p, 'read', at, at + 1, 'ok', { result: value, outcome: 'accepted' });
  const write = (p: number, at: number, value: number, outcome: 'accepted' | 'rejected' | 'unknown'): Ev[] =>
    call(p, 'write', at, at + 1, outcome === 'accepted' ? 'ok' : outcome === 'rejected' ? 'fail' : 'info', { value, outcome });
  const pairs = Math.max(0, lost - 1);
  // writes.accepted counts the pairs' and stale holders' accepted writes too.
  for (let i = 0; i < Math.max(0, w.accepted - 2 * pairs - stale); i++, t += 20) {
    evs.push(section(0, token++, t, t + 8, read(0, t + 1, counter), write(0, t + 3, counter + 1, 'accepted')));
    applied++;
    counter++;
  }
  // Each pair: a second holder reads the same value inside the first's section and writes it too.
  for (let i = 0; i < pairs; i++, t += 30) {
    // The first write is invoked before the second grant, so it is not stale: only the increment is lost.
    evs.push(section(0, token++, t, t + 9, read(0, t + 1, counter), write(0, t + 2.2, counter + 1, 'accepted')));
    evs.push(section(1, token++, t + 2.5, t + 12, read(1, t + 2.6, counter), write(1, t + 7, counter + 1, 'accepted')));
    applied += 2;
    counter++;
  }
  // A stale holder: the lock goes to another holder, who reads (under fence-claim, its claim: the resource has
  // heard of the new holder) and does not write; the first's later write, its section's only access (so no
  // section interleaves with it), is accepted.
  for (let i = 0; i < stale; i++, t += 30) {
    evs.push(section(0, token++, t, t + 12, write(0, t + 8, counter + 1, 'accepted')));
    evs.push(section(1, token++, t + 4, t + 6, read(1, t + 4.5, counter)));
    counter++;
  }
  for (let i = 0; i < w.rejected; i++, t += 30) {
    const inside = i < doubleHolds;
    evs.push(section(0, token++, t, t + 10, read(0, t + 1, counter)));
    evs.push(
      section(
        inside ? 1 : 0,
        token++,
        inside ? t + 2 : t + 12,
        inside ? t + 5 : t + 16,
        write(inside ? 1 : 0, inside ? t + 3 : t + 13, counter + 1, 'rejected'),
      ),
    );
  }
  // The rest of the double holds: a second holder that only reads inside another's section.
  for (let i = w.rejected; i < doubleHolds; i++, t += 20) {
    evs.push(section(0, token++, t, t + 10, read(0, t + 1, counter)));
    evs.push(section(1, token++, t + 2, t + 5, read(1, t + 3, counter)));
  }
  for (let i = 0; i < (w.unknown ?? 0); i++, t += 20) evs.push(section(0, token++, t, t + 8, write(0, t + 3, counter + 1, 'unknown')));
  for (let i = 0; i < (e.applied ?? 2); i++, t += 10) evs.push(nemesis(t, 'pause', { target: 'c1' }), nemesis(t + 5, 'resume', { target: 'c1' }));
  // One lost update without a pair: the final counter misses one acknowledged increment.
  if (o.valid !== 'unknown') evs.push(call(2, 'final-read', t, t + 1, 'ok', { result: lost === 1 ? counter - 1 : counter }));
  return lockHistory(...evs);
}

/** What the run writes for `o`'s history (runResults), read back as the store reads it. */
/**
 * The fixture history as `backend`'s built-in client records it: a backend whose tokens are unique (Redlock's
 * random value) grants strings, never numbers (the history must fit test.json: core/analyse/declared-facts.ts).
 */
export function fixtureHistoryOn(o: FixtureOutcome, backend: RunOptions['backend']): History {
  const history = fixtureHistory(o);
  if (tokenKindOf(backend) !== 'unique') return history;
  return history.map((op) => (typeof op['token'] === 'number' ? { ...op, token: `r${op['token']}` } : op));
}

export function resultsJson(
  o: FixtureOutcome,
  options: Pick<RunOptions, 'workload' | 'resource' | 'backend'> = { workload: 'lock-counter', resource: 'none', backend: 'redis' },
): DecidedResults {
  const results = runResults(fixtureHistoryOn(o, options.backend), options, o.evidence?.planned ?? 2, o.durationMs ?? 1000);
  // The fixture says what a test means; the checkers must agree, or the fixture history is wrong.
  if (results.valid !== o.valid)
    throw new Error(
      `fixture history for ${JSON.stringify(o)} checks as ${String(results.valid)}: ${JSON.stringify(results.checkers.map((c) => [c.checker, c.valid, c.summary]))}`,
    );
  return parseResultsJson(JSON.stringify(results), 'results.json') as DecidedResults;
}

/** A run directory with test.json and results.json; returns its path. */
export function writeRunDir(runDir: string, options: RunOptions, outcome: FixtureOutcome | null, startedAt = '2026-11-29T12:00:00.000Z'): string {
  mkdirSync(join(runDir, 'logs'), { recursive: true });
  const test = { name: `${options.backend}-${options.resource}-${options.workload}`, ...options, startedAt, replay: replayCommand(options) };
  writeFileSync(join(runDir, 'test.json'), JSON.stringify(test, null, 2) + '\n');
  if (outcome === null) return runDir;
  writeFileSync(
    join(runDir, 'history.jsonl'),
    fixtureHistoryOn(outcome, options.backend)
      .map((op) => JSON.stringify(op))
      .join('\n') + '\n',
  );
  writeFileSync(join(runDir, 'results.json'), JSON.stringify(resultsJson(outcome, options), null, 2) + '\n');
  return runDir;
}

export function runOptions(over: Partial<RunOptions> & Pick<RunOptions, 'backend' | 'resource'>): RunOptions {
  return { ...DEFAULTS, workload: 'lock-counter', ...over };
}

export function spec(over: Partial<CompareSpec> = {}): CompareSpec {
  const { nemesis: _n, seed: _s, resultsDir: _r, ...run } = DEFAULTS;
  return {
    backends: ['redis', 'redlock'],
    resources: ['none', 'fence'],
    nemeses: ['client-pause', 'kill'],
    seeds: [1, 2],
    workload: 'lock-counter',
    run: { ...run, timeLimitS: 10 },
    ...over,
  };
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
