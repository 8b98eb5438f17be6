/**
 * interleaved-sections: an access of another holder strictly between two
 * accesses of one section; rejected accesses ignored; concurrent or
 * indeterminate ones only counted.
 */
import { describe, expect, it } from 'vitest';
import { interleavedSectionsChecker } from '../../core/checkers/lock/interleaved-sections.js';
import type { History } from '../../core/history/op.js';
import { call, context, lockHistory, ns, section } from './lock-history.js';

const check = (h: History) => interleavedSectionsChecker.check(h, context({ workload: 'lock-counter', resource: 'none' }));

/** p0 reads at 2-3 and writes at [writeAt, writeAt+1] with `type`; p1's section reads at 41-42 and writes at 43-44. */
function readThenLateWrite(type: 'ok' | 'fail' | 'info', writeAt = 60): History {
  return lockHistory(
    section(0, 1, 1, 70, call(0, 'read', 2, 3, 'ok', { result: 0, token: 1 }), call(0, 'write', writeAt, writeAt + 1, type, { value: 1, token: 1 })),
    section(1, 2, 40, 50, call(1, 'read', 41, 42, 'ok', { result: 0, token: 2 }), call(1, 'write', 43, 44, 'ok', { value: 1, token: 2 })),
  );
}

describe('interleaved-sections', () => {
  it('serial sections are valid', () => {
    const h = lockHistory(
      section(0, 1, 1, 10, call(0, 'read', 2, 3, 'ok', { result: 0 }), call(0, 'write', 4, 5, 'ok', { value: 1 })),
      section(1, 2, 20, 30, call(1, 'read', 21, 22, 'ok', { result: 1 }), call(1, 'write', 23, 24, 'ok', { value: 2 })),
    );
    expect(check(h)).toMatchObject({ valid: true, stats: { sections: 2, interleavings: 0, maybeInterleavings: 0 } });
  });

  it("another holder's section inside a read-modify-write is an interleaving, one per pair of sections", () => {
    const h = readThenLateWrite('ok');
    const v = check(h);
    expect(v).toMatchObject({ valid: false, anomalyCount: 1, stats: { interleavings: 1 } });
    const a = v.anomalies[0]!;
    expect(a).toMatchObject({ kind: 'interleaved-sections', processes: [0, 1], tokens: [1, 2], window: { start: ns(2), end: ns(61) } });
    expect(a.message).toBe(
      "p0's section (token 1) did a read 0 (2.0 ms to 3.0 ms) and later a write of 1 (60.0 ms to 61.0 ms); in between, p1's section (token 2) did a read 0 (41.0 ms to 42.0 ms).",
    );
    expect(a.opIndexes.map((i) => `${h[i]!.process}:${h[i]!.f}`)).toEqual(['0:read', '0:read', '1:read', '1:read', '0:write', '0:write']);
  });

  it('a rejected late write did not happen', () => {
    expect(check(readThenLateWrite('fail'))).toMatchObject({ valid: true, stats: { interleavings: 0, maybeInterleavings: 0 } });
  });

  it('an indeterminate late write might have interleaved: counted, not decisive', () => {
    expect(check(readThenLateWrite('info'))).toMatchObject({ valid: true, stats: { maybeInterleavings: 1 } });
  });

  it('only an access strictly between two others is definite; an overlapping one is a maybe', () => {
    // p0's write is invoked at 42.5, while p1's read (41-42) is done but p1's write (43-44) is still to come.
    const v = check(readThenLateWrite('ok', 42.5));
    expect(v.valid).toBe(false);
    // p1's read is strictly between p0's read and write; only that pair of sections is reported.
    expect(v.anomalyCount).toBe(1);
    const concurrent = check(
      lockHistory(
        section(0, 1, 1, 70, call(0, 'read', 2, 3, 'ok', { result: 0 }), call(0, 'write', 20, 30, 'ok', { value: 1 })),
        section(1, 2, 10, 50, call(1, 'write', 15, 25, 'ok', { value: 1 })),
      ),
    );
    expect(concurrent).toMatchObject({ valid: true, stats: { interleavings: 0, maybeInterleavings: 1 } });
  });
});
