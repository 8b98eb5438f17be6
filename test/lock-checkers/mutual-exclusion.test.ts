/**
 * mutual-exclusion: when holds start and end (release, retirement after an
 * info, end of history), definite double holds, idle and acting maybe-holds;
 * and a property: random non-overlapping holds are valid, and one injected
 * overlap makes the history invalid, naming the two processes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutualExclusionChecker } from '../../core/checkers/lock/mutual-exclusion.js';
import type { History } from '../../core/history/op.js';
import { call, context, lockHistory, ns, section, type Ev } from './lock-history.js';
import { testSeed } from '../support/seed.js';

const check = (h: History) => mutualExclusionChecker.check(h, context());

describe('mutual-exclusion', () => {
  it('sequential holds, one releasing at the instant the next is granted, are valid', () => {
    const v = check(lockHistory(section(0, 1, 10, 50), section(1, 2, 50, 90), section(0, 3, 100, 120)));
    expect(v).toMatchObject({ valid: true, anomalyCount: 0, stats: { definiteHolds: 3, doubleHolds: 0 } });
  });

  it('two overlapping definite holds are a double hold naming both processes, tokens and the overlap', () => {
    const h = lockHistory(section(0, 7, 10, 60), section(1, 8, 40, 90));
    const v = check(h);
    expect(v.valid).toBe(false);
    expect(v.anomalyCount).toBe(1);
    const a = v.anomalies[0]!;
    expect(a).toMatchObject({ kind: 'double-hold', processes: [0, 1], tokens: [7, 8], window: { start: ns(40), end: ns(60) } });
    expect(a.message).toBe(
      'p0 held the lock with token 7 from 10.0 ms to 60.0 ms (its release), and p1 held the lock with token 8 from 40.0 ms to 90.0 ms (its release): both held it from 40.0 ms to 60.0 ms.',
    );
    expect(a.opIndexes.map((i) => h[i]!.f)).toEqual(['acquire', 'acquire', 'release', 'release', 'acquire', 'acquire', 'release', 'release']);
  });

  it('an idle info acquire is counted, not held against the lock', () => {
    const h = lockHistory(call(0, 'acquire', 0, 30, 'info'), section(1, 2, 10, 40));
    expect(check(h)).toMatchObject({ valid: true, stats: { maybeHolds: 1, idleMaybeHolds: 1 } });
  });

  it('a maybe-hold under which the process went on acting makes an overlap unknown', () => {
    // Breaks rule 4 (tolerated): p0 writes after its acquire timed out.
    const h = lockHistory(call(0, 'acquire', 0, 5, 'info'), call(0, 'write', 20, 25, 'ok', { value: 'x' }), section(1, 2, 10, 40));
    const v = check(h);
    expect(v.valid).toBe('unknown');
    expect(v.anomalies[0]).toMatchObject({ kind: 'maybe-double-hold', processes: [0, 1], window: { start: ns(10), end: ns(40) } });
  });

  it('a holder that retired after an info write stops holding at the info', () => {
    const h = lockHistory(call(0, 'acquire', 0, 1, 'ok', { token: 1 }), call(0, 'write', 5, 30, 'info', { value: 'a' }), section(1, 2, 40, 60));
    expect(check(h).valid).toBe(true);
  });

  it('a holder still busy when the history ends holds to the end', () => {
    const h = lockHistory(call(0, 'acquire', 0, 1, 'ok', { token: 1 }), call(0, 'write', 5, null), section(1, 2, 40, 60));
    const v = check(h);
    expect(v.valid).toBe(false);
    expect(v.anomalies[0]!.message).toContain('(the end of the history)');
  });

  it('failed acquires hold nothing, and nemesis ops are ignored', () => {
    const h = lockHistory(section(0, 1, 10, 50), call(1, 'acquire', 20, 30, 'fail'), [[25, 'nemesis', 'info', 'pause', { target: 'c1' }, {}]]);
    expect(check(h)).toMatchObject({ valid: true, stats: { definiteHolds: 1, maybeHolds: 0 } });
  });

  it('one anomaly per overlapping pair', () => {
    const h = lockHistory(section(0, 1, 10, 100), section(1, 2, 20, 30), section(2, 3, 40, 50));
    expect(check(h)).toMatchObject({ valid: false, anomalyCount: 2 });
  });
});

/** Plans of holds on a timeline: gaps >= 0 (touching allowed), lengths >= 1 ms, a process each. */
const holdPlans = fc.array(fc.record({ gap: fc.nat(20), length: fc.integer({ min: 1, max: 30 }), wait: fc.nat(15), process: fc.nat(3) }), {
  minLength: 1,
  maxLength: 25,
});

/** Non-overlapping holds; each acquire is invoked up to `wait` ms early, never before the process's previous op. */
function timeline(plans: { gap: number; length: number; wait: number; process: number }[]): { events: Ev[][]; spans: [number, number, number][] } {
  let t = 1;
  const free = new Map<number, number>();
  const events: Ev[][] = [];
  const spans: [number, number, number][] = [];
  plans.forEach((p, i) => {
    const start = t + p.gap;
    const end = start + p.length;
    const invoke = Math.max(free.get(p.process) ?? 0, start - p.wait);
    events.push(call(p.process, 'acquire', invoke, start, 'ok', { token: i + 1 }), call(p.process, 'release', end, end, 'ok', { token: i + 1 }));
    spans.push([p.process, start, end]);
    free.set(p.process, end);
    t = end;
  });
  return { events, spans };
}

describe('mutual-exclusion properties', () => {
  const seed = testSeed('mutual-exclusion', 'test/lock-checkers');

  it('random non-overlapping holds are valid', () => {
    fc.assert(
      fc.property(holdPlans, (plans) => {
        expect(check(lockHistory(...timeline(plans).events)).valid).toBe(true);
      }),
      { seed, numRuns: 200 },
    );
  });

  it('one injected overlap makes the history invalid, naming the intruder and the holder', () => {
    fc.assert(
      fc.property(holdPlans, fc.nat(), fc.double({ min: 0.01, max: 0.99, noNaN: true }), (plans, pick, at) => {
        const { events, spans } = timeline(plans);
        const [holder, start, end] = spans[pick % spans.length]!;
        // Process 9 never appears in the plan: it acquires inside the holder's hold and releases after it.
        const granted = start + at * (end - start);
        const v = check(lockHistory(...events, call(9, 'acquire', granted, granted, 'ok', { token: 99 }), call(9, 'release', end + 1, end + 1)));
        expect(v.valid).toBe(false);
        expect(v.anomalies.some((a) => a.processes.includes(9) && a.processes.includes(holder) && a.tokens.includes(99))).toBe(true);
      }),
      { seed, numRuns: 200 },
    );
  });
});
