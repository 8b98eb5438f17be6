/** From results.json files to run summaries and cells: counts, kinds, rates, rejected writes, outcomes. */
import { describe, expect, it } from 'vitest';
import { describeCell, summarizeCell } from '../../src/compare/cell-summary.js';
import { matrixCells } from '../../src/compare/compare-spec.js';
import { anomaliesByKind, readRunSummary, summarizeResults, type RunSummary } from '../../src/compare/run-summary.js';
import { resultsJson, runOptions, tempDir, writeRunDir } from './fixture-runs.js';

const results = resultsJson;
const cell = matrixCells(['redis'], ['fence'], ['client-pause'])[0]!;
const run = (seed: number, o: Parameters<typeof resultsJson>[0]): RunSummary => ({
  id: `${cell.id}#${seed}`,
  cellId: cell.id,
  seed,
  dir: `/runs/${seed}`,
  log: null,
  hasReport: false,
  replay: null,
  startedAt: null,
  error: null,
  ...summarizeResults(results(o)),
});

describe('run summaries', () => {
  it('counts anomalies by kind over checkers and reads the writes from access-stats', () => {
    const s = summarizeResults(results({ valid: false, anomalies: { 'lost-update': 3, 'stale-write': 1 }, writes: { accepted: 20, rejected: 4, unknown: 1 } }));
    expect(s.status).toBe('invalid');
    expect(s.anomalies).toEqual({ 'lost-update': 3, 'stale-write': 1 });
    expect(s.writes).toEqual({ accepted: 20, rejected: 4, unknown: 1 });
    expect(s.useless).toBe(false);
    expect(s.failing).toEqual([
      'lost-updates: 2 acknowledged increment(s) lost; 3 anomalies',
      'stale-writes: 1 stale write(s) and 0 token regression(s) accepted by the resource',
    ]);
  });

  it('counts capped anomaly lists in full', () => {
    expect(anomaliesByKind(results({ valid: true, anomalies: { 'double-hold': 250 } }).checkers)).toEqual({ 'double-hold': 250 });
    const mixed = {
      valid: false,
      checkers: [{ checker: 'x', valid: false, anomalyCount: 5, anomalies: [{ kind: 'a' }, { kind: 'b' }] }],
    };
    expect(anomaliesByKind(mixed.checkers)).toEqual({ a: 1, b: 1, 'x (unlisted)': 3 });
  });

  it('flags a fence that rejected every write as safe but useless', () => {
    const s = summarizeResults(results({ valid: true, writes: { accepted: 0, rejected: 30 } }));
    expect(s).toMatchObject({ status: 'valid', useless: true, writes: { accepted: 0, rejected: 30, unknown: 0 } });
  });

  it('reads a run directory, and calls one without results.json unknown, never valid', () => {
    const root = tempDir('summary');
    const o = runOptions({ backend: 'redis', resource: 'none', nemesis: ['kill'], seed: 3 });
    const done = readRunSummary(writeRunDir(`${root}/a`, o, { valid: false, anomalies: { 'lost-update': 2 } }), { id: 'i', cellId: 'c', seed: 3 });
    expect(done).toMatchObject({ status: 'invalid', anomalies: { 'lost-update': 2 }, hasReport: false, startedAt: '2026-11-29T12:00:00.000Z' });
    expect(done.replay).toContain('--nemesis kill');
    const cut = readRunSummary(writeRunDir(`${root}/b`, o, null), { id: 'i', cellId: 'c', seed: 3 });
    expect(cut.status).toBe('unknown');
    expect(cut.error).toMatch(/results\.json is missing/);
  });
});

describe('cells', () => {
  it('aggregates seeds: invalid runs, rate, kinds, writes, useless runs', () => {
    const c = summarizeCell(
      cell,
      [1, 2, 3],
      [
        run(2, { valid: false, anomalies: { 'lost-update': 2 }, writes: { accepted: 5, rejected: 1 }, durationMs: 2000 }),
        run(1, { valid: true, writes: { accepted: 0, rejected: 9 }, durationMs: 1000 }),
        run(3, { valid: false, anomalies: { 'lost-update': 1, 'stale-write': 4 }, writes: { accepted: 7, rejected: 0 }, durationMs: 3000 }),
      ],
    );
    expect(c.runs.map((r) => r.seed)).toEqual([1, 2, 3]);
    expect(c).toMatchObject({ outcome: 'unsafe', invalid: 2, valid: 1, unknown: 0, uselessRuns: 1, durationMs: 6000, missingSeeds: [] });
    expect(c.rate).toBeCloseTo(2 / 3);
    expect(c.anomalies).toEqual({ 'lost-update': 3, 'stale-write': 4 });
    expect(c.writes).toEqual({ accepted: 12, rejected: 10, unknown: 0 });
    expect(describeCell(c)).toBe('2 of 3 runs invalid (stale-write 4, lost-update 3)');
  });

  it.each([
    [
      'one invalid run beats an unknown and a missing one',
      [1, 2, 3],
      [run(1, { valid: false, anomalies: { 'lost-update': 1 } }), run(2, { valid: 'unknown' })],
      'unsafe',
    ],
    ['an unknown run makes the cell unknown', [1, 2], [run(1, { valid: true }), run(2, { valid: 'unknown' })], 'unknown'],
    ['a missing run leaves the cell incomplete', [1, 2], [run(1, { valid: true })], 'incomplete'],
    ['all planned runs valid, with faults that struck and a lock that failed, is safe', [1, 2], [run(1, { valid: true }), run(2, { valid: true })], 'safe'],
    [
      'all runs valid but no fault struck is untested',
      [1, 2],
      [run(1, { valid: true, evidence: { applied: 0 } }), run(2, { valid: true, evidence: { applied: 0 } })],
      'untested',
    ],
    ['all runs valid but the lock never failed is untested', [1], [run(1, { valid: true, evidence: { doubleHolds: 0, refusals: 0 } })], 'untested'],
    ['one tested run of two makes the cell safe', [1, 2], [run(1, { valid: true, evidence: { applied: 0 } }), run(2, { valid: true })], 'safe'],
    [
      'an untested run still counts as invalid when a deciding checker failed',
      [1],
      [run(1, { valid: false, anomalies: { 'lost-update': 1 }, evidence: { applied: 0 } })],
      'unsafe',
    ],
    ['nothing planned here is not run', [], [], 'not-run'],
  ] as const)('%s', (_name, planned, runs, outcome) => {
    expect(summarizeCell(cell, planned, runs).outcome).toBe(outcome);
  });

  it('says why a cell is untested, and what tested a safe one', () => {
    const untested = summarizeCell(
      cell,
      [1, 2],
      [run(1, { valid: true, evidence: { doubleHolds: 0, refusals: 0 } }), run(2, { valid: true, evidence: { doubleHolds: 0, refusals: 0 } })],
    );
    expect(untested.evidence).toEqual({ planned: 4, applied: 4, skipped: 0, failed: 0, doubleHolds: 0, refusals: 0 });
    expect(describeCell(untested)).toBe('untested: 2 runs valid, none showing the danger (the lock never failed: no double hold, no refusal)');
    const none = summarizeCell(cell, [1], [run(1, { valid: true, evidence: { planned: 0, applied: 0 } })]);
    expect(describeCell(none)).toBe('untested: 1 run valid, none showing the danger (no fault applied)');
    const safe = summarizeCell(
      cell,
      [1, 2],
      [run(1, { valid: true, writes: { accepted: 8, rejected: 3 } }), run(2, { valid: true, evidence: { applied: 0 } })],
    );
    expect(describeCell(safe)).toBe('2 runs valid, 1 untested (2 of 4 fault windows struck; 2 double holds, 3 refusals)');
  });

  it('counts only the deciding checkers; the others are information', () => {
    // mutual-exclusion reports double holds on lock-counter but does not decide it (fixture-runs.ts writes deciding).
    const s = summarizeResults(results({ valid: true, anomalies: { 'double-hold': 3 } }));
    expect(s).toMatchObject({ status: 'valid', outcome: 'safe', anomalies: {}, informational: { 'double-hold': 3 }, failing: [] });
    const c = summarizeCell(cell, [1], [run(1, { valid: true, anomalies: { 'double-hold': 3 } })]);
    expect(c).toMatchObject({ outcome: 'safe', anomalies: {}, informational: { 'double-hold': 3 } });
  });

  it('a tool error counts as unknown', () => {
    const failed: RunSummary = { ...run(1, { valid: true }), status: 'error', error: 'cluster did not start' };
    expect(summarizeCell(cell, [1], [failed])).toMatchObject({ outcome: 'unknown', unknown: 1 });
  });

  it('a not-applicable cell stays so whatever runs claim', () => {
    const na = matrixCells(['redlock'], ['fence'], ['kill'])[0]!;
    const c = summarizeCell(na, [], []);
    expect(c.outcome).toBe('not-applicable');
    expect(describeCell(c)).toMatch(/^not applicable: redlock issues no monotonic fencing token/);
  });
});
