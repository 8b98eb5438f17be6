/** A safe cell's weight: its tested runs are the tries, their double holds and refusals the dangerous moments; untested runs count for nothing. */
import { describe, expect, it } from 'vitest';
import { cellWeight, summarizeCell } from '../../src/compare/cell-summary.js';
import { matrixCells } from '../../src/compare/compare-spec.js';
import { buildCompareReport, type MatrixInput } from '../../src/compare/compare-report.js';
import { renderCompareHtml } from '../../src/compare/render-compare-html.js';
import { summarizeResults, type RunSummary } from '../../src/compare/run-summary.js';
import { resultsJson } from './fixture-runs.js';

const cell = matrixCells(['redis'], ['fence'], ['client-pause'])[0]!;
const run = (seed: number, o: Parameters<typeof resultsJson>[0]): RunSummary => ({
  id: `${cell.id}#${seed}`,
  cellId: cell.id,
  seed,
  dir: `/runs/${seed}`,
  log: null,
  hasReport: false,
  replay: null,
  startedAt: null,
  error: null,
  ...summarizeResults(resultsJson(o)),
});

describe('the weight of a safe cell', () => {
  it('counts tested runs as tries and their double holds and refusals as dangerous moments', () => {
    const c = summarizeCell(
      cell,
      [1, 2, 3],
      [
        run(1, { valid: true, evidence: { doubleHolds: 2, refusals: 3 } }),
        run(2, { valid: true, evidence: { doubleHolds: 1, refusals: 0 } }),
        run(3, { valid: true, evidence: { applied: 0 } }),
      ],
    );
    expect(c.outcome).toBe('safe');
    expect(cellWeight(c)).toBe(
      'no violation in 2 runs, 6 dangerous moments tested: a failure that shows in at least 78 % of runs would have been found with 95 % confidence',
    );
  });

  it('is shown in the compare page for safe cells only', () => {
    const input: MatrixInput = {
      backends: ['redis'],
      resources: ['none', 'fence'],
      nemeses: ['client-pause'],
      planned: new Map([
        ['redis/none/client-pause', [1]],
        ['redis/fence/client-pause', [1]],
      ]),
      runs: [
        { ...run(1, { valid: false, anomalies: { 'lost-update': 1 } }), id: 'redis/none/client-pause#1', cellId: 'redis/none/client-pause' },
        { ...run(1, { valid: true, evidence: { doubleHolds: 2, refusals: 1 } }), id: 'redis/fence/client-pause#1', cellId: 'redis/fence/client-pause' },
      ],
      shards: [],
      description: 'w',
      warnings: [],
    };
    const html = renderCompareHtml(buildCompareReport(input, null, { outDir: '/out', generatedAt: '2026-11-29T12:00:00Z' }));
    const weights = [...html.matchAll(/<div class="weight">([^<]*)<\/div>/g)].map((m) => m[1]);
    expect(weights).toEqual([
      'no violation in 1 run, 3 dangerous moments tested: a failure that shows in at least 95 % of runs would have been found with 95 % confidence',
    ]);
  });
});
