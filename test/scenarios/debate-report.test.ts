import { describe, expect, it } from 'vitest';
import { findScenario, selectVariants } from '../../src/scenarios/catalogue.js';
import { buildDebateReport, type DebateEntry } from '../../src/scenarios/debate-report.js';
import { renderDebateHtml } from '../../src/scenarios/render-debate-html.js';
import { renderDebateMd, target } from '../../src/scenarios/render-debate-md.js';
import type { Scenario } from '../../src/scenarios/scenario.js';
import { failedRun } from '../../src/scenarios/scenario-run.js';
import { summarizeVariant } from '../../src/scenarios/summarize-variant.js';
import { nemesisOps, QUIET, scenarioRunOf } from './fixtures.js';

const s1 = findScenario('S1');
const opts = { outDir: '/out', seeds: [1], generatedAt: '2026-11-29T12:00:00.000Z', durationMs: 61_000 };

function entry(scenario: Scenario, labels: string[], runs: ReturnType<typeof scenarioRunOf>[][]): DebateEntry {
  return { scenario, variants: selectVariants(scenario, labels).map((v, i) => summarizeVariant(scenario, v, [1], runs[i] ?? [])) };
}

describe('buildDebateReport', () => {
  it('links each run relative to the debate directory, counts rows and sets the exit code', () => {
    const unsafe = scenarioRunOf(1, { lostUpdates: 2, resource: 'none' }, nemesisOps(2), 2, '/out/runs/S1/S1-redis-none-s1/20261129T120000');
    const fenced = scenarioRunOf(1, { fenced: 2 }, nemesisOps(2), 2, '/out/runs/S1/S1-redis-fence-s1/20261129T120100');
    const report = buildDebateReport([entry(s1, ['redis-none', 'redis-fence', 'redlock-fence'], [[unsafe], [fenced]])], opts);
    expect(report.exitCode).toBe(0);
    expect(report.headline).toBe('1 scenario, 3 rows · 2 as the debate agrees · 0 differ · 0 undecided · 0 disputed · 1 not run');
    const row = report.scenarios[0]!.rows[0]!;
    expect(row.runs).toEqual([
      {
        seed: 1,
        status: 'invalid',
        link: 'runs/S1/S1-redis-none-s1/20261129T120000/report.html',
        runDir: 'runs/S1/S1-redis-none-s1/20261129T120000',
        replay: 'sudo npx fencecheck scenario run S1 --variant redis-none --first-seed 1',
        sharedFrom: null,
        error: null,
      },
    ]);
    expect(report.totals).toMatchObject({ rows: 3, runs: 2, failedRuns: 0, 'as-expected': 2 });
    expect(report.scenarios[0]).not.toHaveProperty('variants');
  });

  it('exits 1 when a row differs from the agreed outcome, 2 when a run failed', () => {
    const differs = buildDebateReport([entry(s1, ['redis-none'], [[scenarioRunOf(1, QUIET, nemesisOps(2), 2)]])], opts);
    expect(differs.exitCode).toBe(1);
    const failed = scenarioRunOf(1, { lostUpdates: 1, resource: 'none' });
    const error = failedRun({ id: 'S1/redis-fence#1', cellId: 'S1/redis-fence', seed: 1 }, 'replay', 'boom', null, 10);
    const report = buildDebateReport([entry(s1, ['redis-none', 'redis-fence'], [[failed], [error]])], opts);
    expect(report.exitCode).toBe(2);
    expect(report.scenarios[0]!.rows[1]!.runs[0]!.link).toBeNull();
  });

  it('exits 3 when a measured row is undecided (the fault struck in no run: untested, not agreement)', () => {
    const untested = buildDebateReport([entry(s1, ['redis-none'], [[scenarioRunOf(1, QUIET, nemesisOps(0, 2), 2)]])], opts);
    expect(untested.scenarios[0]!.rows[0]!.match).toBe('undecided');
    expect(untested.exitCode).toBe(3);
  });
});

describe('renderers', () => {
  const hostile = '<script>alert(1)</script> | [x](javascript:alert(1)) `tick` & "q"';
  const evil: Scenario = {
    ...s1,
    id: 'S1',
    title: hostile,
    claim: hostile,
    predictions: { kleppmann: hostile, antirez: hostile },
    setup: hostile,
    recipe: hostile,
    variants: s1.variants.map((v) => ({ ...v, text: hostile })),
  };
  const run = scenarioRunOf(1, { lostUpdates: 1, resource: 'none' }, nemesisOps(1), 1, '/out/runs/S1/a (b)/<i>&"/x');
  run.summary = { ...run.summary, replay: hostile, error: hostile };
  const report = buildDebateReport([entry(evil, ['redis-none'], [[run]])], opts);

  it('HTML: every value escaped, links percent-encoded, no script', () => {
    const html = renderDebateHtml(report);
    for (const raw of ['<script', 'javascript:alert(1)"']) expect(html).not.toContain(raw);
    const fragments = [
      '&lt;script&gt;alert(1)&lt;/script&gt;',
      'href="runs/S1/a%20(b)/%3Ci%3E%26%22/x/report.html"',
      '<b>data</b> unsafe in 1/1 seeds: 2 lost updates, 1 interleaving, 1 stale write, 1 token regression',
      '✓ as the debate agrees',
      'Kleppmann predicts',
    ];
    for (const f of fragments) expect(html).toContain(f);
  });

  it('Markdown: one table row per variant, no raw markup, link targets encoded', () => {
    const mdText = renderDebateMd(report);
    const tableRows = mdText.split('\n').filter((l) => l.startsWith('| '));
    expect(tableRows).toHaveLength(2);
    expect(tableRows[1]!.split(/(?<!\\)\|/).length).toBe(10);
    // Only the replay list holds the raw text, inside a code span, where it is inert.
    expect(tableRows.join('\n')).not.toMatch(/(?<!\\)<script/);
    expect(mdText).toContain('``<script>alert(1)</script> | [x](javascript:alert(1)) `tick` & "q"``');
    expect(mdText).toContain('\\<script\\>');
    expect(mdText).toContain('[s1 ✗](runs/S1/a%20%28b%29/%3Ci%3E%26%22/x/report.html)');
    expect(mdText).toContain(
      '✓ data unsafe in 1/1 seeds: 2 lost updates, 1 interleaving, 1 stale write, 1 token regression; lock unsafe in 1/1 seeds: 1 double hold',
    );
    expect(target('a b/(c)')).toBe('a%20b/%28c%29');
  });
});
