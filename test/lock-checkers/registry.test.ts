/**
 * checkersFor and runCheckers over the fixture manifest: each workload gets
 * its checkers in order, and each scenario gets its known verdicts.
 */
import { describe, expect, it } from 'vitest';
import { checkersFor } from '../../core/checkers/lock/registry.js';
import { runCheckers, type LockContext } from '../../core/checkers/lock/verdict.js';
import { FIXTURES } from './fixtures.js';
import { context } from './lock-history.js';

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

describe('who decides in the database modes', () => {
  const deciding = (over: Partial<LockContext>) =>
    runCheckers(checkersFor(over.workload ?? 'lock-counter'), [], context({ workload: 'lock-counter', ...over })).deciding;

  it('lock-counter in version or for-update: the counter decides; stale writes and interleavings only report', () => {
    for (const resource of ['version', 'for-update'] as const) {
      expect(deciding({ resource, backend: 'redis' })).toEqual(['lost-updates', 'grant-tokens', 'access-stats']);
      expect(deciding({ resource, backend: 'none', tokenKind: 'unique' })).toEqual(['lost-updates', 'access-stats']);
    }
  });

  it('with a token mode, or on fenced-write, they decide as before', () => {
    expect(deciding({ resource: 'fence', backend: 'etcd' })).toEqual(['lost-updates', 'stale-writes', 'interleaved-sections', 'grant-tokens', 'access-stats']);
    expect(deciding({ workload: 'fenced-write', resource: 'version', backend: 'etcd' })).toEqual([
      'stale-writes',
      'interleaved-sections',
      'grant-tokens',
      'access-stats',
    ]);
  });
});
