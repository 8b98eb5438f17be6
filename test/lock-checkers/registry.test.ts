/**
 * checkersFor and runCheckers over the fixture manifest: each workload gets
 * its checkers in order, and each scenario gets its known verdicts.
 */
import { describe, expect, it } from 'vitest';
import { checkersFor } from '../../checkers/lock/registry.js';
import { runCheckers } from '../../checkers/lock/verdict.js';
import { FIXTURES } from './fixtures.js';

describe('checkersFor', () => {
  it.each([
    ['mutex', ['mutual-exclusion', 'mutex-linearizable', 'access-stats', 'section-cost']],
    ['lock-counter', ['lost-updates', 'stale-writes', 'interleaved-sections', 'grant-tokens', 'mutual-exclusion', 'access-stats', 'section-cost']],
    ['fenced-write', ['stale-writes', 'interleaved-sections', 'grant-tokens', 'mutual-exclusion', 'access-stats', 'section-cost']],
  ] as const)('%s', (workload, names) => {
    expect(checkersFor(workload).map((c) => c.name)).toEqual(names);
  });
});

describe('known verdicts', () => {
  it.each(FIXTURES.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    const r = runCheckers(checkersFor(f.context.workload), f.history, f.context);
    expect(Object.fromEntries(r.verdicts.map((v) => [v.checker, v.valid]))).toEqual(f.expected);
    expect(r.verdicts.map((v) => v.checker)).toEqual(Object.keys(f.expected));
    expect(r.valid).toBe(f.merged);
    for (const v of r.verdicts) {
      expect(v.error).toBeUndefined();
      expect(v.summary).not.toContain('\n');
      // A false verdict names its witness.
      if (v.valid === false) expect(v.anomalies.length).toBeGreaterThan(0);
    }
  });

  it('the useless fence is flagged in the access stats', () => {
    const f = FIXTURES.find((x) => x.name === 'a fence that rejected every write')!;
    const stats = runCheckers(checkersFor(f.context.workload), f.history, f.context).verdicts.find((v) => v.checker === 'access-stats')!;
    expect(stats.stats?.useless).toBe(1);
  });
});
