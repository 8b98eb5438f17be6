/** The cost beside safety in compare: a run's section-cost stats as its cost, a cell's runs combined, in words. */
import { describe, expect, it } from 'vitest';
import { sectionCostChecker } from '../../core/checkers/lock/section-cost.js';
import { evidenceOf } from '../../core/checkers/lock/evidence.js';
import { cellCost, describeCost, summarizeCell } from '../../src/compare/cell-summary.js';
import { matrixCells } from '../../src/compare/compare-spec.js';
import { summarizeResults, type DecidedResults, type RunSummary } from '../../src/compare/run-summary.js';
import type { StoredResults } from '../../core/run-files/results-json.js';
import { call, context, lockHistory } from '../lock-checkers/lock-history.js';

const ctx = context({ workload: 'lock-counter', resource: 'version', backend: 'none', tokenKind: 'unique' });

/** A lockless history of `n` one-write sections 100 ms apart, each 10 ms long, and one version refusal retried. */
function history(n: number) {
  const sections = Array.from({ length: n }, (_, i) => [
    call(i % 2, 'read', i * 100, i * 100 + 2, 'ok', { result: i }),
    call(i % 2, 'write', i * 100 + 5, i * 100 + 10, 'ok', { value: i + 1 }),
  ]).flat();
  return lockHistory(
    ...sections,
    call(5, 'read', 0, 1, 'ok', { result: 0 }),
    call(5, 'write', 2, 3, 'fail', { error: 'version-changed', outcome: 'rejected' }),
    call(5, 'read', 4, 5, 'ok', { result: 0, attempt: 2 }),
    call(5, 'write', 6, 7, 'ok', { value: 1 }),
  );
}

const run = (n: number): RunSummary => {
  // As results.json holds it: written, then read back (section-cost reports, it never decides).
  const results = JSON.parse(JSON.stringify({ valid: true, deciding: [], checkers: [sectionCostChecker.check(history(n), ctx)] })) as DecidedResults;
  return {
    id: `x#${n}`,
    cellId: 'x',
    seed: n,
    dir: null,
    log: null,
    hasReport: false,
    replay: null,
    startedAt: null,
    error: null,
    ...summarizeResults(results),
  };
};

describe('cost in compare', () => {
  it('a run carries the section-cost measure', () => {
    expect(run(4).cost).toMatchObject({ completed: 5, refusals: 1, retries: 1, timeouts: 0 });
  });

  it('a cell averages the throughput, sums the counts, keeps the worst p99', () => {
    const [a, b] = [run(4), run(10)];
    const c = cellCost([a, b])!;
    expect(c).toMatchObject({ runs: 2, completed: 16, refusals: 2, retries: 2, sectionP99Ms: Math.max(a.cost!.sectionP99Ms, b.cost!.sectionP99Ms) });
    expect(c.sectionsPerSecond).toBeCloseTo((a.cost!.sectionsPerSecond + b.cost!.sectionsPerSecond) / 2, 2);
    expect(describeCost(c)).toMatch(/^[\d.]+ sections\/s over 2 runs; 2 refused, 2 retries, 0 timeouts; section p99 \d+ ms$/);
  });

  it('runs that measured nothing give a cell no cost, not a cost of zero', () => {
    const nothing: RunSummary = { ...run(1), cost: null };
    expect(cellCost([nothing])).toBeNull();
  });

  it("a lockless cell sums the runs' overlapping sections as its evidence", () => {
    const h = history(4);
    const withEvidence: RunSummary = { ...run(4), evidence: evidenceOf(h, [], 0) };
    const cell = matrixCells(['none'], ['version'], ['none'])[0]!;
    const c = summarizeCell(cell, [4, 10], [withEvidence, { ...withEvidence, seed: 10 }]);
    expect(withEvidence.evidence!.protection.overlaps).toBeGreaterThan(0);
    expect(c.evidence.overlaps).toBe(2 * withEvidence.evidence!.protection.overlaps!);
  });
});
