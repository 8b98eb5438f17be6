/**
 * mutex-linearizable: acquire/release ops through the `mutex` model; the
 * witness of an invalid history becomes a `not-linearizable` anomaly naming
 * the blocked op and the holder it ran into; a deadline is 'unknown'.
 */
import { describe, expect, it } from 'vitest';
import { mutexLinearizableChecker } from '../../core/checkers/lock/mutex-linearizable.js';
import { call, context, lockHistory, ns, section } from './lock-history.js';

describe('mutex-linearizable', () => {
  it('sequential holds, with accesses and a pending acquire, are linearizable', () => {
    const h = lockHistory(
      section(0, 1, 10, 50, call(0, 'write', 20, 30, 'ok', { value: 'p0-0', token: 1 })),
      section(1, 2, 60, 90),
      call(2, 'acquire', 95, null),
    );
    const v = mutexLinearizableChecker.check(h, context({ workload: 'mutex' }));
    expect(v).toMatchObject({ checker: 'mutex-linearizable', valid: true, anomalyCount: 0, stats: { operations: 5 } });
  });

  it('a second grant while the first holder has not released is not linearizable', () => {
    const h = lockHistory(section(0, 1, 10, 60), section(1, 2, 40, 90));
    const v = mutexLinearizableChecker.check(h, context({ workload: 'mutex' }));
    expect(v.valid).toBe(false);
    const a = v.anomalies[0]!;
    expect(a).toMatchObject({ kind: 'not-linearizable', processes: [1, 0], tokens: [2, 1], window: { start: ns(9), end: ns(40) } });
    expect(a.message).toBe(
      "p1's acquire (invoked at 39.0 ms, ok at 40.0 ms) cannot be linearized: already held (1 op(s) linearized before it, the last acquire among them p0's, invoked at 9.0 ms).",
    );
    expect(a.opIndexes.map((i) => [h[i]!.process, h[i]!.type])).toEqual([
      [1, 'invoke'],
      [1, 'ok'],
      [0, 'invoke'],
      [0, 'ok'],
    ]);
  });

  it('a deadline gives unknown with the reason', () => {
    // 13 acquires and 11 releases, all concurrent: no order works, and proving it visits millions of configurations.
    const h = lockHistory(
      ...Array.from({ length: 13 }, (_, p) => call(p, 'acquire', 0, 100, 'ok', { token: p })),
      ...Array.from({ length: 11 }, (_, p) => call(20 + p, 'release', 0, 100)),
    );
    const v = mutexLinearizableChecker.check(h, context({ workload: 'mutex', timeoutMs: 0 }));
    expect(v.valid).toBe('unknown');
    expect(v.summary).toMatch(/^undecided: .*deadline/);
  });
});
