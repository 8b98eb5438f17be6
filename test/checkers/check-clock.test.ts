/**
 * The checker's deadline is read on the clock it is given (CheckOptions.now,
 * LockContext.now), never on the machine's: a fake clock that jumps past the
 * deadline at its n-th reading stops the search at the same step on every
 * run and every machine, and a clock that stands still never stops it, even
 * with no time at all allowed.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../core/checkers/linearizability/check.js';
import { CLOCK_EVERY } from '../../core/checkers/linearizability/wgl.js';
import { createModel } from '../../core/checkers/models/registry.js';
import { mutexLinearizableChecker } from '../../core/checkers/lock/mutex-linearizable.js';
import type { History } from '../../core/history/op.js';
import { buildHistory } from '../support/random-history.js';
import { call, context, lockHistory } from '../lock-checkers/lock-history.js';

/**
 * A clock at `T0` for its first `reads` readings, then an hour later. T0 is far past any machine's
 * performance.now(), so a deadline read on the machine's clock instead would never come.
 */
const T0 = 1e12;
function jumpingClock(reads: number): () => number {
  let n = 0;
  return () => T0 + (++n <= reads ? 0 : 3_600_000);
}

/**
 * `writers` concurrent indeterminate writes, then a read of a value none wrote: invalid, but only after
 * trying every subset and order of the writes (models.test.ts's hard history).
 */
function hardHistory(writers: number): History {
  const events = [
    ...Array.from({ length: writers }, (_, p) => ({ process: p, type: 'invoke' as const, f: 'write', value: p })),
    ...Array.from({ length: writers }, (_, p) => ({ process: p, type: 'info' as const, f: 'write', value: p })),
    { process: writers, type: 'invoke' as const, f: 'read' },
    { process: writers, type: 'ok' as const, f: 'read', value: -1 },
  ];
  return buildHistory(events);
}

describe('the linearizability checker on a given clock', () => {
  // Readings: the start, the one part set up, then one every CLOCK_EVERY search steps: the third is the search's first.
  it("a clock that jumps past the deadline at the search's first look stops it there: unknown, at the same step every run", () => {
    const once = () => check(createModel('cas-register'), hardHistory(20), { timeoutMs: 1000, now: jumpingClock(2) });
    const r = once();
    expect(r).toEqual({
      valid: 'unknown',
      reason: 'deadline of 1000 ms reached with 1 of 1 partition undecided',
      stats: { operations: 21, partitions: 1, steps: CLOCK_EVERY, cacheEntries: r.stats.cacheEntries, elapsedMs: 3_600_000 },
    });
    expect(once()).toEqual(r);
  });

  it('the same in the search that learns failures per part (kv, unpartitioned)', () => {
    // models.test.ts's hard part: a get reads a number no append wrote, after 14 pending appends.
    const h = hardHistory(14).map((e) =>
      e.process === 14 ? { ...e, f: 'get', value: ['a', e.type === 'ok' ? 7 : null] } : { ...e, f: 'append', value: ['a', String(e.value)] },
    );
    const once = () => check(createModel('kv', { partition: false }), h, { timeoutMs: 1000, now: jumpingClock(2) });
    const r = once();
    expect(r).toMatchObject({
      valid: 'unknown',
      reason: 'deadline of 1000 ms reached with 1 of 1 partition undecided',
      stats: { steps: CLOCK_EVERY, elapsedMs: 3_600_000 },
    });
    expect(once()).toEqual(r);
  });

  it('a clock that jumps while the parts are set up stops before any search', () => {
    const r = check(createModel('cas-register'), hardHistory(20), { timeoutMs: 1000, now: jumpingClock(1) });
    expect(r).toMatchObject({ valid: 'unknown', reason: 'deadline of 1000 ms reached with 1 of 1 partition undecided', stats: { steps: 0 } });
  });

  it('a clock that stands still never reaches even a 0 ms deadline: the search decides', () => {
    // On the machine's clock, timeoutMs 0 makes this 'unknown' (models.test.ts); hundreds of thousands of steps here.
    const r = check(createModel('etcd'), hardHistory(12), { timeoutMs: 0, now: () => 0 });
    expect(r.valid).toBe(false);
    expect(r.stats.elapsedMs).toBe(0);
  });
});

describe("mutex-linearizable on the context's clock", () => {
  // 13 acquires and 11 releases, all concurrent: no order works, and proving it visits millions of configurations.
  const h = lockHistory(
    ...Array.from({ length: 13 }, (_, p) => call(p, 'acquire', 0, 100, 'ok', { token: p })),
    ...Array.from({ length: 11 }, (_, p) => call(20 + p, 'release', 0, 100)),
  );

  it('a clock that jumps past the deadline gives unknown, at the same step every run', () => {
    const once = () => mutexLinearizableChecker.check(h, context({ workload: 'mutex', timeoutMs: 1000, now: jumpingClock(2) }));
    const v = once();
    expect(v).toMatchObject({
      valid: 'unknown',
      summary: 'undecided: deadline of 1000 ms reached with 1 of 1 partition undecided',
      stats: { steps: CLOCK_EVERY },
    });
    expect(once()).toEqual(v);
  });
});
