/**
 * What the page is given: op bars paired per process, lock holds as the
 * clients saw them, fault windows and the lanes they hit, anomalies resolved
 * to bars, and the size caps for histories too large to carry whole.
 */
import { describe, expect, it } from 'vitest';
import type { History, Op } from '../../core/history/op.js';
import { faultWindows, partitionSides } from '../../src/report/fault-windows.js';
import { lockHolds } from '../../src/report/lock-holds.js';
import { lineOfIndex, pairOperations } from '../../src/report/pair-operations.js';
import { readRunDir } from '../../src/report/read-run-dir.js';
import { buildReportData } from '../../src/report/report-data.js';
import { SAMPLE_MUTEX_RUN_DIR, SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';

const op = (process: Op['process'], type: Op['type'], f: string, extra: Partial<Op> = {}): Op => ({
  index: 0,
  time: 0,
  process,
  type,
  f,
  value: null,
  ...extra,
});
/** Ops at indexes 0, 2, 4, ... (gaps are allowed) and times 0, 1000, 2000, ... ns. */
const history = (...ops: Op[]): History => ops.map((o, i) => ({ ...o, index: i * 2, time: i * 1000 }));

describe('pairOperations', () => {
  it("pairs each invocation with its process's next completion; pending ops and the nemesis stay unpaired", () => {
    const h = history(op(0, 'invoke', 'acquire'), op(1, 'invoke', 'acquire'), op('nemesis', 'info', 'pause'), op(1, 'ok', 'acquire'), op(0, 'info', 'acquire'));
    const { pairs, pairOfLine } = pairOperations(h);
    expect(pairs).toEqual([
      { inv: 0, done: 4, process: 0 },
      { inv: 1, done: 3, process: 1 },
    ]);
    expect([...pairOfLine]).toEqual([0, 1, -1, 1, 0]);
    expect(pairOperations(history(op(3, 'invoke', 'read'))).pairs).toEqual([{ inv: 0, done: -1, process: 3 }]);
  });

  it('finds a line by the history index, with gaps', () => {
    const h = history(op(0, 'invoke', 'a'), op(0, 'ok', 'a'), op(0, 'invoke', 'b'));
    expect([0, 2, 4, 1, 5].map((i) => lineOfIndex(h, i))).toEqual([0, 1, 2, -1, -1]);
  });
});

describe("lockHolds (the lock checkers' holds, placed on lines)", () => {
  it("runs from the acquire returning ok to the release being invoked, whatever the release's outcome", () => {
    const h = history(
      op(0, 'invoke', 'acquire'),
      op(0, 'ok', 'acquire', { token: 5 }),
      op(0, 'invoke', 'write'),
      op(0, 'ok', 'write'),
      op(0, 'invoke', 'release'),
      op(0, 'fail', 'release'),
    );
    expect(lockHolds(h)).toEqual([{ process: 0, start: 1000, end: 4000, definite: true, endedBy: 'release', token: 5, acquireLine: 1, releaseLine: 4 }]);
  });

  it('ends an unreleased hold where its process retired; an info acquire is a maybe hold from its invocation', () => {
    const h = history(
      op(0, 'invoke', 'acquire'),
      op(0, 'ok', 'acquire', { token: 'a' }),
      op(0, 'invoke', 'write'),
      op(0, 'info', 'write'),
      op(1, 'invoke', 'acquire'),
      op(1, 'info', 'acquire'),
    );
    expect(lockHolds(h)).toEqual([
      { process: 0, start: 1000, end: 3000, definite: true, endedBy: 'retired', token: 'a', acquireLine: 1, releaseLine: -1 },
      { process: 1, start: 4000, end: 5000, definite: false, endedBy: 'retired', token: null, acquireLine: 5, releaseLine: -1 },
    ]);
  });
});

describe('faultWindows', () => {
  it("pairs starts and stops by target, from the start's invocation to the stop's completion", () => {
    const pause = { target: 'client2', pid: 7, process: 2 };
    const h = history(
      op('nemesis', 'invoke', 'pause', { value: pause }),
      op('nemesis', 'info', 'pause', { value: pause }),
      op('nemesis', 'invoke', 'kill', { value: 'n1' }),
      op('nemesis', 'invoke', 'resume', { value: pause }),
      op('nemesis', 'info', 'resume', { value: pause }),
      op('nemesis', 'info', 'kill', { value: 'n1' }),
    );
    expect(faultWindows(h)).toEqual([
      { kind: 'pause', start: 0, end: 4000, label: 'pause client2', target: 'client2', processes: [2], startLine: 0, endLine: 4 },
      { kind: 'kill', start: 2000, end: null, label: 'kill n1', target: 'n1', processes: [], startLine: 2, endLine: -1 },
    ]);
  });

  it('closes a clock offset with an offset of 0, and everything with heal; other nemesis ops are points', () => {
    const h = history(
      op('nemesis', 'info', 'clock-offset', { value: { target: 'n2', ms: 250 } }),
      op('nemesis', 'info', 'start-partition', { value: { n1: ['n2', 'n3'], n2: ['n1'], n3: ['n1'] } }),
      op('nemesis', 'info', 'clock-offset', { value: { target: 'n2', ms: 0 } }),
      op('nemesis', 'info', 'heal'),
      op('nemesis', 'info', 'compact'),
    );
    expect(faultWindows(h).map((w) => [w.kind, w.label, w.start, w.end])).toEqual([
      ['clock', 'clock n2 +250 ms', 0, 2000],
      ['partition', 'partition n1 | n2 n3', 1000, 3000],
      ['other', 'compact', 4000, 4000],
    ]);
  });

  it('pairs offsets in flight at once by their node (a clock jump on three nodes), each window its own', () => {
    const at = (node: string, ms: number) => ({ value: { target: node, ms } });
    const h = history(
      ...['n1', 'n2', 'n3'].map((n) => op('nemesis', 'invoke', 'clock-offset', at(n, 3000))),
      // Completed in another order than invoked.
      ...['n3', 'n1', 'n2'].map((n) => op('nemesis', 'info', 'clock-offset', at(n, 3000))),
      ...['n2', 'n1', 'n3'].map((n) => op('nemesis', 'invoke', 'clock-offset', at(n, 0))),
      ...['n1', 'n2', 'n3'].map((n) => op('nemesis', 'info', 'clock-offset', at(n, 0))),
    );
    expect(faultWindows(h).map((w) => [w.label, w.start, w.end])).toEqual([
      ['clock n1 +3000 ms', 0, 9000],
      ['clock n2 +3000 ms', 1000, 10000],
      ['clock n3 +3000 ms', 2000, 11000],
    ]);
  });

  it("draws a session's end as a moment of its own, on the holder it hit; one that ended nothing as a failure", () => {
    const holder = { target: 'c2', pid: 31, process: 1, token: 7 };
    const h = history(
      op('nemesis', 'invoke', 'end-session', { value: holder }),
      op('nemesis', 'info', 'end-session', { value: holder, node: 'pgl1', backends: [4711] }),
      op('nemesis', 'invoke', 'end-session', { value: holder }),
      op('nemesis', 'info', 'end-session', { value: holder, error: 'no session held the lock on pgl1 any more' }),
    );
    expect(faultWindows(h).map((w) => [w.kind, w.label, w.start, w.end, w.processes])).toEqual([
      ['session', 'session of c2 ended', 0, 1000, [1]],
      ['other', 'end-session failed', 2000, 3000, [1]],
    ]);
  });

  it('opens no window for a fault the nemesis could not apply, and keeps one open whose stop failed', () => {
    const pause = { target: 'c1', process: 1 };
    const h = history(
      op('nemesis', 'info', 'pause', { value: { target: 'holder' }, error: 'no client held the lock' }),
      op('nemesis', 'invoke', 'pause', { value: pause }),
      op('nemesis', 'info', 'pause', { value: pause }),
      op('nemesis', 'invoke', 'resume', { value: pause }),
      op('nemesis', 'info', 'resume', { value: pause, error: 'ESRCH' }),
    );
    expect(faultWindows(h).map((w) => [w.kind, w.label, w.start, w.end])).toEqual([
      ['other', 'pause failed', 0, 0],
      ['pause', 'pause c1', 1000, null],
      ['other', 'resume failed', 3000, 4000],
    ]);
  });

  it("names a grudge's sides", () => {
    expect(partitionSides({ a: ['c'], b: ['c'], c: ['a', 'b'] })).toBe('a b | c');
    expect(partitionSides({})).toBe('');
  });
});

describe('buildReportData on the sample run', () => {
  it('gives a lane per client process, resolves every anomaly, and marks the paused lane', async () => {
    const run = await readRunDir(SAMPLE_RUN_DIR);
    const data = buildReportData(run, 'test');
    const processes = new Set(run.history.map((o) => o.process).filter((p) => p !== 'nemesis'));
    expect(data.lanes.map((l) => l.process)).toEqual([...processes].sort((a, b) => (a as number) - (b as number)));
    const all = run.results!.checkers.flatMap((c) => c.anomalies ?? []);
    expect(data.anomalies).toHaveLength(all.length);
    data.anomalies.forEach((ref, i) => {
      expect(ref.missing).toEqual([]);
      // An anomaly may name both halves of one op (an invocation and its completion): one pair.
      expect(ref.pairs.length).toBeGreaterThanOrEqual(1);
      expect(ref.pairs.length).toBeLessThanOrEqual(all[i]!.opIndexes!.length);
    });
    const mutex = buildReportData(await readRunDir(SAMPLE_MUTEX_RUN_DIR), 'test');
    const witness = mutex.anomalies.find((a) => a.witness)!.witness!;
    expect(witness.prefix.every((p) => p >= 0)).toBe(true);
    const pause = data.faults.find((f) => f.kind === 'pause')!;
    expect(pause.lanes).toContain(data.lanes.findIndex((l) => l.process === pause.processes[0]));
    expect(data.detail).toBe('full');
    expect(data.embeddedOps).toBe(run.history.length);
    // The outcome line the run printed, from results.json's evidence.
    expect(data.outcome).toBe('outcome: UNSAFE; 4 of 4 fault windows struck (100%); 10 double hold(s), 3 refusal(s)');
    expect(buildReportData({ ...run, results: { valid: true, checkers: [] } }, 'test').outcome).toMatch(
      /^outcome: UNTESTED \(results\.json records no evidence/,
    );
    expect(buildReportData({ ...run, results: null }, 'test').outcome).toBeNull();
  });

  it("past the caps keeps fields only for the anomalies' ops and the nemesis, then cuts, and says so", async () => {
    const run = await readRunDir(SAMPLE_RUN_DIR);
    const light = buildReportData(run, 'test', { fullDetailLines: 100, maxEmbedLines: 10_000 });
    expect(light.detail).toBe('anomalies');
    let line = 0;
    const tokenLines = new Set(light.history.sparse.find((c) => c.key === 'token')!.at.map((d) => (line += d)));
    // The witness's prefix (every acquire and release up to it) and the anomalies' ops keep theirs; later ops do not.
    const lastAcquire = run.history.findLastIndex((o) => o.f === 'acquire' && o.type === 'ok');
    expect(tokenLines.has(lastAcquire)).toBe(false);
    const stale = run.results!.checkers.flatMap((c) => c.anomalies ?? []).find((a) => a.kind === 'stale-write')!;
    expect(tokenLines.has(stale.opIndexes!.at(-1)!)).toBe(true);
    expect(light.warnings.join()).toContain('values and extra fields are embedded only for the ops the anomalies name');
    const cut = buildReportData(run, 'test', { fullDetailLines: 100, maxEmbedLines: 200 });
    expect(cut.embeddedOps).toBe(200);
    expect(cut.historyOps).toBe(run.history.length);
    expect(cut.warnings.join()).toContain('embeds the first 200');
    expect(cut.warnings.join()).toMatch(/op indexes named by anomalies are not in the history/);
  });
});
