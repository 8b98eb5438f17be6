/**
 * The story's choice of anomaly and its clock: of the kind that tells the
 * story best, the narrowest (the pair of holders that lost an update, not
 * the counter's shortfall over the whole run), its lines on the history's
 * own clock (the checkers' messages and the timeline's axis count from 0).
 */
import { describe, expect, it } from 'vitest';
import { storyOf } from '../../src/report/story.js';
import { lockHolds } from '../../src/report/lock-holds.js';
import { faultWindows } from '../../src/report/fault-windows.js';
import { runResults } from '../../core/analyse/run-results.js';
import { parseResultsJson } from '../../core/run-files/results-json.js';
import { call, lockHistory, nemesis, section } from '../lock-checkers/lock-history.js';

describe('storyOf', () => {
  it("tells the lost update of the pair that lost it (one token granted to both), on the history's clock", () => {
    // etcd's Mutex after a leader pause: p0 and p1 both told they hold token 7 at 5 s; both read 1 and write 2, each accepted by the fence.
    const history = lockHistory(
      section(
        2,
        6,
        1000,
        1100,
        call(2, 'read', 1010, 1012, 'ok', { result: 0, token: 6 }),
        call(2, 'write', 1020, 1022, 'ok', { value: 1, token: 6, outcome: 'accepted' }),
      ),
      nemesis(3000, 'pause', { target: 'etcd1' }),
      nemesis(4800, 'resume', { target: 'etcd1' }),
      nemesis(4800, 'heal-all'),
      section(
        0,
        7,
        5000,
        5300,
        call(0, 'read', 5010, 5012, 'ok', { result: 1, token: 7 }),
        call(0, 'write', 5200, 5202, 'ok', { value: 2, token: 7, outcome: 'accepted' }),
      ),
      section(
        1,
        7,
        5001,
        5301,
        call(1, 'read', 5011, 5013, 'ok', { result: 1, token: 7 }),
        call(1, 'write', 5201, 5203, 'ok', { value: 2, token: 7, outcome: 'accepted' }),
      ),
      call(9, 'final-read', 9000, 9001, 'ok', { result: 2 }),
    );
    const results = parseResultsJson(
      JSON.stringify(runResults(history, { workload: 'lock-counter', resource: 'fence-claim', backend: 'etcd' }, 1, 10_000)),
      'results.json',
    );
    const lost = results.checkers.find((c) => c.checker === 'lost-updates')!.anomalies!;
    expect(lost.length).toBe(2);
    const story = storyOf(results, history, lockHolds(history), faultWindows(history))!;
    const chosen = results.checkers.flatMap((c) => c.anomalies ?? [])[story.anomaly]!;
    // The pair's anomaly (it names p0 and p1), not the shortfall over the whole run.
    expect(chosen.kind).toBe('lost-update');
    expect(chosen.message).toMatch(/token 7\) read 1 at 50\d\d\.0 ms/);
    // The heal-all point is the nemesis's bookkeeping, not a fault on anyone.
    expect(story.lines.some((l) => l.includes('heal-all'))).toBe(false);
    // Only the pair's holds, at the times the messages give (5.000 s, not 4 s after the first op).
    expect(story.lines.filter((l) => / held the lock /.test(l))).toEqual([
      'p0 held the lock with token 7 from 5.000 s to 5.300 s (release)',
      'p1 held the lock with token 7 from 5.001 s to 5.301 s (release)',
    ]);
  });
});

describe("storyOf: when the holder's lease ran out", () => {
  it('each hold line says grant + lease_ms, the moment after which its write is stale', () => {
    // p0 granted at 1 s with a 500 ms lease, paused; p1 granted at 2 s; p0's write at 3 s lands on an unfenced row.
    const raw = lockHistory(
      section(
        0,
        1,
        1000,
        3100,
        call(0, 'read', 1010, 1012, 'ok', { result: 0, token: 1 }),
        call(0, 'write', 3000, 3002, 'ok', { value: 1, token: 1, outcome: 'accepted' }),
      ),
      section(
        1,
        2,
        2000,
        2300,
        call(1, 'read', 2010, 2012, 'ok', { result: 0, token: 2 }),
        call(1, 'write', 2200, 2202, 'ok', { value: 1, token: 2, outcome: 'accepted' }),
      ),
      call(9, 'final-read', 9000, 9001, 'ok', { result: 1 }),
    );
    const history = raw.map((op) => (op.f === 'acquire' && op.type === 'ok' ? { ...op, lease_ms: 500 } : op));
    const results = parseResultsJson(
      JSON.stringify(runResults(history, { workload: 'lock-counter', resource: 'none', backend: 'redis' }, 1, 10_000)),
      'results.json',
    );
    const story = storyOf(results, history, lockHolds(history), faultWindows(history))!;
    expect(story.lines).toContain('p0 held the lock with token 1 from 1.000 s to 3.100 s (release); its lease of 500 ms ran out at 1.500 s');
  });
});

describe("storyOf: the plan's clock beside the history's", () => {
  it("says where the plan's time 0 is when the run recorded it (test.json mainStartNs), and nothing when not", () => {
    const history = lockHistory(
      section(
        0,
        1,
        1000,
        1400,
        call(0, 'read', 1010, 1012, 'ok', { result: 0, token: 1 }),
        call(0, 'write', 1300, 1302, 'ok', { value: 1, token: 1, outcome: 'accepted' }),
      ),
      section(
        1,
        2,
        1100,
        1500,
        call(1, 'read', 1110, 1112, 'ok', { result: 0, token: 2 }),
        call(1, 'write', 1200, 1202, 'ok', { value: 1, token: 2, outcome: 'accepted' }),
      ),
      call(9, 'final-read', 9000, 9001, 'ok', { result: 1 }),
    );
    const results = parseResultsJson(
      JSON.stringify(runResults(history, { workload: 'lock-counter', resource: 'none', backend: 'redis' }, 1, 10_000)),
      'results.json',
    );
    const withZero = storyOf(results, history, lockHolds(history), faultWindows(history), 412_000_000)!;
    expect(withZero.lines[1]).toBe("(times on the history's clock; the plan's 0, from which its windows' \"at\" count, is at 0.412 s)");
    const without = storyOf(results, history, lockHolds(history), faultWindows(history))!;
    expect(without.lines.some((l) => l.includes("plan's 0"))).toBe(false);
  });
});
