/**
 * sectionCostChecker: sections completed per second, section latency
 * percentiles, refusals by code, version retries, timeouts and read waits,
 * with a lock and without one; a measurement that never decides a run.
 */
import { describe, expect, it } from 'vitest';
import { sectionCostChecker } from '../../core/checkers/lock/section-cost.js';
import { call, context, lockHistory, section } from './lock-history.js';

const counter = context({ workload: 'lock-counter', resource: 'version', backend: 'none', tokenKind: 'unique' });

describe('sectionCostChecker', () => {
  it('without a lock: a version conflict retries within the section; its latency runs to the acknowledged write', () => {
    const history = lockHistory(
      // p0: read v0, write refused (p1 got there first), retry read, write ok. One section, 0 to 300 ms.
      call(0, 'read', 0, 10, 'ok', { result: 0, outcome: 'accepted' }),
      call(0, 'write', 100, 110, 'fail', { value: 1, outcome: 'rejected', error: 'version-changed' }),
      call(0, 'read', 120, 130, 'ok', { result: 1, outcome: 'accepted', attempt: 2 }),
      call(0, 'write', 290, 300, 'ok', { value: 2, outcome: 'accepted' }),
      // p1: one clean section, 50 to 160 ms.
      call(1, 'read', 50, 60, 'ok', { result: 0, outcome: 'accepted' }),
      call(1, 'write', 100, 105, 'ok', { value: 1, outcome: 'accepted' }),
      // p1 again: a read that timed out waiting; the section never completed.
      call(1, 'read', 400, 1400, 'fail', { error: 'statement-timeout' }),
    );
    const v = sectionCostChecker.check(history, counter);
    expect(v.valid).toBe(true);
    expect(v.stats).toMatchObject({
      sections: 3,
      completed: 2,
      refusals: 1,
      'refused.version-changed': 1,
      retries: 1,
      timeouts: 1,
      'sectionMs.p50': 55,
      'sectionMs.max': 300,
    });
    // 2 completed over 1.4 s of client ops.
    expect(v.stats!['sectionsPerSecond']).toBeCloseTo(2 / 1.4, 2);
    expect(v.stats!['readWaitMs.max']).toBe(1000);
    expect(v.summary).toContain('1 refused (version-changed 1), 1 retries, 1 timeouts');
  });

  it('with a lock: a section is acquire to release; a refused write leaves it uncompleted', () => {
    const history = lockHistory(
      section(0, 1, 10, 200, call(0, 'write', 100, 110, 'ok', { value: 'a', outcome: 'accepted', token: 1 })),
      section(1, 2, 300, 500, call(1, 'write', 400, 410, 'fail', { value: 'b', outcome: 'rejected', token: 2, error: 'fenced' })),
    );
    const v = sectionCostChecker.check(history, context());
    expect(v.stats).toMatchObject({ sections: 2, completed: 1, refusals: 1, 'refused.fenced': 1, retries: 0, 'sectionMs.p50': 101 });
  });

  it('mutex: a section completes with its release', () => {
    const v = sectionCostChecker.check(lockHistory(section(0, 1, 10, 50)), context({ workload: 'mutex' }));
    expect(v.stats).toMatchObject({ completed: 1, 'sectionMs.p50': 42 });
  });

  it('nothing completed is nothing measured: unknown, and it never decides the run', () => {
    const v = sectionCostChecker.check(lockHistory(call(0, 'acquire', 0, 1000, 'fail', { error: 'timeout' })), context());
    expect(v.valid).toBe('unknown');
    expect(v.summary).toContain('no section completed');
    expect(sectionCostChecker.decides?.(context())).toBe(false);
  });
});
