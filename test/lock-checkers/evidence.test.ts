import { describe, expect, it } from 'vitest';
import { evidenceOf, outcomeOf, untestedWhy, type Evidence } from '../../core/checkers/lock/evidence.js';
import { mutualExclusionChecker } from '../../core/checkers/lock/mutual-exclusion.js';
import type { Ev } from './lock-history.js';
import { call, lockHistory, section } from './lock-history.js';

/** A nemesis event of either type, with an optional error. */
const nem = (ms: number, type: 'invoke' | 'info', f: string, value: Ev[4], error?: string): Ev[] => [
  [ms, 'nemesis', type, f, value, error === undefined ? {} : { error }],
];

describe('evidenceOf', () => {
  it('counts applied, skipped (no invoke) and failed (invoke then error) faults, ignoring heals and clock resets', () => {
    const history = lockHistory(
      // A client pause that struck, and its resume.
      nem(100, 'invoke', 'pause', { target: 'c1', pid: 10, process: 1 }),
      nem(101, 'info', 'pause', { target: 'c1', pid: 10, process: 1 }),
      nem(900, 'invoke', 'resume', { target: 'c1', pid: 10, process: 1 }),
      nem(901, 'info', 'resume', { target: 'c1', pid: 10, process: 1 }),
      // A client pause that found nobody: only an info with the error.
      nem(1000, 'info', 'pause', { target: 'holder' }, 'no client to pause (nobody held the lock or was acquiring)'),
      // A server pause and a kill that struck; a clock offset that failed; the clock reset is a heal.
      nem(2000, 'invoke', 'pause', { target: 'n1' }),
      nem(2001, 'info', 'pause', { target: 'n1' }),
      nem(2100, 'invoke', 'kill', 'n2'),
      nem(2101, 'info', 'kill', 'n2'),
      nem(3000, 'invoke', 'clock-offset', { target: 'n1', ms: 5000 }),
      nem(3001, 'info', 'clock-offset', { target: 'n1', ms: 5000 }, 'clock file not writable'),
      nem(3100, 'invoke', 'clock-offset', { target: 'n1', ms: 0 }),
      nem(3101, 'info', 'clock-offset', { target: 'n1', ms: 0 }),
      // A delay without proxies: a skip.
      nem(4000, 'info', 'start-delay', { target: null, link: 'resource', ms: 300 }, 'no client to delay (nobody held the lock or was acquiring)'),
      nem(5000, 'invoke', 'heal-all', null),
      nem(5001, 'info', 'heal-all', null),
    );
    expect(evidenceOf(history, [], 6)).toEqual<Evidence>({
      faults: {
        planned: 6,
        applied: 3,
        skipped: [
          { fault: 'client-pause', why: 'no client to pause (nobody held the lock or was acquiring)' },
          { fault: 'delay', why: 'no client to delay (nobody held the lock or was acquiring)' },
        ],
        failed: [{ fault: 'clock', error: 'clock file not writable' }],
      },
      protection: { doubleHolds: 0, refusals: 0 },
      clients: { crashes: 0, first: null },
    });
  });

  it('counts a session-end by its invoke and info (what it ended is beside the value, so the two pair), and one that ended nothing as failed', () => {
    const holder = { target: 'c2', pid: 31, process: 4, token: 7 };
    const history = lockHistory(
      [
        [100, 'nemesis', 'invoke', 'end-session', holder, {}],
        [104, 'nemesis', 'info', 'end-session', holder, { node: 'pgl1', backends: [4711] }],
      ],
      [
        [900, 'nemesis', 'invoke', 'end-session', holder, {}],
        [903, 'nemesis', 'info', 'end-session', holder, { node: 'pgl1', error: 'no session held the lock on pgl1 any more' }],
      ],
      nem(2000, 'info', 'end-session', { target: 'holder' }, 'no session to end: nobody held the lock within 2000 ms'),
    );
    expect(evidenceOf(history, [], 3).faults).toEqual({
      planned: 3,
      applied: 1,
      skipped: [{ fault: 'session-end', why: 'no session to end: nobody held the lock within 2000 ms' }],
      failed: [{ fault: 'session-end', error: 'no session held the lock on pgl1 any more' }],
    });
  });

  it('a part of the harness that died is a failed fault, named, outside the planned windows; a valid run with one is untested', () => {
    const died = 'the delay proxy on c3 to pg1 (10.77.0.51:5432, pid 7) was killed by SIGKILL mid-run; its log: /r/logs/proxy-c3-pg1.log';
    const history = lockHistory(
      nem(100, 'invoke', 'start-delay', { target: 'c1', link: 'resource', ms: 1500 }),
      nem(101, 'info', 'start-delay', { target: 'c1', link: 'resource', ms: 1500 }),
      nem(900, 'info', 'harness-died', { part: 'proxy c3->pg1' }, died),
    );
    const e = evidenceOf(history, [], 1);
    expect(e.faults).toEqual({ planned: 1, applied: 1, skipped: [], failed: [{ fault: 'harness', error: died }] });
    // Re-checked without its plan: the death is no planned window.
    expect(evidenceOf(history, []).faults.planned).toBe(1);
    const tested: Evidence = { ...e, protection: { doubleHolds: 2, refusals: 0 } };
    expect(untestedWhy(true, tested, 'lock-counter')).toBe(`a part of the harness died: ${died}`);
    expect(outcomeOf(true, tested, 'lock-counter')).toBe('untested');
    expect(outcomeOf(true, tested, 'mutex')).toBe('untested');
    // What was seen before it died stands: an invalid run stays unsafe.
    expect(outcomeOf(false, tested, 'lock-counter')).toBe('unsafe');
  });

  it('counts the client processes that crashed, with the first one', () => {
    const crashes = [
      { client: 'client1-3', exit: 'signal SIGABRT', stderrTail: ['Assertion failed'] },
      { client: 'client2-5', exit: 'signal SIGSEGV', stderrTail: [] },
    ];
    expect(evidenceOf(lockHistory(), [], 0, crashes).clients).toEqual({ crashes: 2, first: crashes[0] });
    expect(evidenceOf(lockHistory(), [], 0).clients).toEqual({ crashes: 0, first: null });
  });

  it('pairs overlapping faults of the same kind by their value', () => {
    const history = lockHistory(
      nem(100, 'invoke', 'start-loss', { target: 'n1', percent: 20 }),
      nem(110, 'invoke', 'start-loss', { target: 'n2', percent: 20 }),
      nem(120, 'info', 'start-loss', { target: 'n2', percent: 20 }, 'nft failed'),
      nem(130, 'info', 'start-loss', { target: 'n1', percent: 20 }),
    );
    expect(evidenceOf(history, [], 2).faults).toEqual({ planned: 2, applied: 1, skipped: [], failed: [{ fault: 'loss', error: 'nft failed' }] });
  });

  it('counts definite double holds from mutual exclusion and the accesses the resource rejected', () => {
    const history = lockHistory(
      section(1, 1, 10, 100, call(1, 'write', 50, 60, 'ok', { token: 1, outcome: 'accepted' })),
      // Process 2 holds while 1 still does: one double hold; its write is accepted, 1's late write rejected.
      section(2, 2, 40, 200, call(2, 'write', 70, 80, 'ok', { token: 2, outcome: 'accepted' })),
      section(
        3,
        3,
        300,
        400,
        call(3, 'write', 310, 320, 'fail', { token: 3, outcome: 'rejected' }),
        call(3, 'read', 330, 340, 'fail', { token: 3, outcome: 'rejected' }),
      ),
      // A lock-lost refusal is the client's own, not the resource's: not counted.
      section(4, 4, 500, 600, call(4, 'write', 510, 520, 'fail', { token: 4, outcome: 'unknown' })),
    );
    const verdicts = [mutualExclusionChecker.check(history, { workload: 'fenced-write', resource: 'fence', backend: 'etcd', tokenKind: 'monotonic' })];
    expect(evidenceOf(history, verdicts, 0).protection).toEqual({ doubleHolds: 1, refusals: 2 });
  });

  it('counts grants refused for want of replicas (WAIT, NOREPLICAS) as the protection saying no; a held lock is not', () => {
    const history = [
      { index: 0, time: 1, process: 0, type: 'invoke' as const, f: 'acquire', value: null },
      { index: 1, time: 2, process: 0, type: 'fail' as const, f: 'acquire', value: null, error: 'not-replicated' },
      { index: 2, time: 3, process: 1, type: 'invoke' as const, f: 'acquire', value: null },
      { index: 3, time: 4, process: 1, type: 'fail' as const, f: 'acquire', value: null, error: 'redis-error NOREPLICAS Not enough good replicas to write.' },
      { index: 4, time: 5, process: 2, type: 'invoke' as const, f: 'acquire', value: null },
      { index: 5, time: 6, process: 2, type: 'fail' as const, f: 'acquire', value: null, error: 'held' },
    ];
    expect(evidenceOf(history, [], 0).protection).toEqual({ doubleHolds: 0, refusals: 2 });
  });
});

describe('outcomeOf', () => {
  const evidence = (applied: number, doubleHolds: number, refusals: number): Evidence => ({
    faults: { planned: 2, applied, skipped: [], failed: [] },
    protection: { doubleHolds, refusals },
  });

  it.each([
    // valid, applied, doubleHolds, refusals, workload, outcome, why untested
    [false, 0, 0, 0, 'lock-counter', 'unsafe', undefined],
    ['unknown', 2, 1, 1, 'lock-counter', 'unknown', undefined],
    [true, 0, 3, 3, 'lock-counter', 'untested', 'no fault applied'],
    [true, 2, 0, 0, 'fenced-write', 'untested', 'the lock never failed: no double hold, no refusal'],
    [true, 2, 1, 0, 'fenced-write', 'safe', undefined],
    [true, 2, 0, 4, 'lock-counter', 'safe', undefined],
    [true, 1, 0, 0, 'mutex', 'safe', undefined],
    [true, 0, 0, 0, 'mutex', 'untested', 'no fault applied'],
  ] as const)('valid %s, %i applied, %i double holds, %i refusals, %s: %s', (valid, applied, doubleHolds, refusals, workload, outcome, why) => {
    const e = evidence(applied, doubleHolds, refusals);
    expect(outcomeOf(valid, e, workload)).toBe(outcome);
    expect(untestedWhy(valid, e, workload)).toBe(why);
  });
});

describe('evidenceOf without a plan', () => {
  it('counts the attempted faults as planned', () => {
    const history = lockHistory(
      nem(100, 'invoke', 'kill', 'n1'),
      nem(101, 'info', 'kill', 'n1'),
      nem(200, 'info', 'pause', { target: 'holder' }, 'no client to pause'),
    );
    expect(evidenceOf(history, []).faults).toEqual({ planned: 2, applied: 1, skipped: [{ fault: 'client-pause', why: 'no client to pause' }], failed: [] });
  });
});

describe('evidence without a lock (--backend none)', () => {
  const counterRead = (p: number, at: number, result: number) => call(p, 'read', at, at + 5, 'ok', { result, outcome: 'accepted' });
  const counterWrite = (p: number, at: number, value: number) => call(p, 'write', at, at + 5, 'ok', { value, outcome: 'accepted' });

  it('counts sections that began while another was in flight: the danger, even with no fault', () => {
    const overlapping = lockHistory(
      counterRead(0, 0, 0),
      counterRead(1, 10, 0),
      counterWrite(0, 100, 1),
      counterWrite(1, 110, 1),
      counterRead(0, 300, 1),
      counterWrite(0, 320, 2),
    );
    const e = evidenceOf(overlapping, [], 0);
    expect(e.protection.overlaps).toBe(1);
    expect(untestedWhy(true, e, 'lock-counter')).toBeUndefined();
    expect(outcomeOf(true, e, 'lock-counter')).toBe('safe');
  });

  it('sections one after another tested nothing: untested, whatever the faults', () => {
    const serial = lockHistory(counterRead(0, 0, 0), counterWrite(0, 100, 1), counterRead(1, 200, 1), counterWrite(1, 300, 2));
    const e = evidenceOf(serial, [], 0);
    expect(e.protection.overlaps).toBe(0);
    expect(untestedWhy(true, e, 'lock-counter')).toMatch(/no two sections overlapped/);
    expect(outcomeOf(true, e, 'lock-counter')).toBe('untested');
    expect(outcomeOf(false, e, 'lock-counter')).toBe('unsafe');
  });

  it('a section left pending (an unanswered write) overlaps every later one', () => {
    const pending = lockHistory(counterRead(0, 0, 0), call(0, 'write', 100, null, 'ok', { value: 1 }), counterRead(1, 5000, 0), counterWrite(1, 5100, 1));
    expect(evidenceOf(pending, [], 0).protection.overlaps).toBe(1);
  });

  it('sections that never wrote (failed reads while the database was down) put nothing at risk', () => {
    const failedReads = lockHistory(call(0, 'read', 0, 500, 'fail'), call(1, 'read', 10, 510, 'fail'), counterRead(0, 600, 0), counterWrite(0, 700, 1));
    expect(evidenceOf(failedReads, [], 0).protection.overlaps).toBe(0);
  });

  it('is not counted with a lock', () => {
    const locked = lockHistory(section(0, 1, 0, 100, counterRead(0, 10, 0), counterWrite(0, 50, 1)));
    expect(evidenceOf(locked, [], 0).protection.overlaps).toBeUndefined();
  });
});
