/**
 * The three renderings of a report: the HTML matrix (colours, links, n/a notes,
 * and every value as text), JUnit (one case per cell, well-formed whatever the
 * values hold) and the Markdown summary (a table no value can break).
 */
import { describe, expect, it } from 'vitest';
import { buildCompareReport, type CompareReport, type MatrixInput } from '../../src/compare/compare-report.js';
import { parseExpectations } from '../../src/compare/expectations.js';
import { renderCompareHtml } from '../../src/compare/render-compare-html.js';
import { renderJunit, xml } from '../../src/compare/render-junit.js';
import { code, md, renderSummaryMd } from '../../src/compare/render-summary-md.js';
import type { RunSummary } from '../../src/compare/run-summary.js';

const EVIL = '</script><img src=x onerror=alert(1)>';

function run(cellId: string, seed: number, over: Partial<RunSummary>): RunSummary {
  return {
    id: `${cellId}#${seed}`,
    cellId,
    seed,
    dir: `/out/runs/${seed}`,
    log: null,
    hasReport: true,
    status: 'valid',
    durationMs: 30_000,
    outcome: 'safe',
    untestedWhy: null,
    evidence: { faults: { planned: 2, applied: 2, skipped: [], failed: [] }, protection: { doubleHolds: 1, refusals: 0 } },
    anomalies: {},
    informational: {},
    failing: [],
    writes: { accepted: 10, rejected: 0, unknown: 0 },
    useless: false,
    replay: `fencecheck run --seed ${seed}`,
    startedAt: null,
    error: null,
    ...over,
  };
}

function report(expect: string | null = null): CompareReport {
  const input: MatrixInput = {
    backends: ['redis', 'redlock'],
    resources: ['none', 'fence'],
    nemeses: ['client-pause'],
    planned: new Map([
      ['redis/none/client-pause', [1, 2]],
      ['redis/fence/client-pause', [1]],
      ['redlock/none/client-pause', [1]],
    ]),
    runs: [
      run('redis/none/client-pause', 1, {
        status: 'invalid',
        outcome: 'unsafe',
        anomalies: { 'lost-update': 3, [`a|b ${EVIL}`]: 1 },
        failing: [`lost-updates: ${EVIL}`],
        replay: `fencecheck run ${EVIL}\u0001`,
        dir: `/out/runs/${EVIL.replace(/\//g, '')}`,
      }),
      run('redis/none/client-pause', 2, {
        status: 'valid',
        cost: { sectionsPerSecond: 2.5, completed: 70, refusals: 1, retries: 1, timeouts: 0, sectionP99Ms: 1200 },
        jobs: { jobs: 70, duplicates: 1, lost: 0, wasted: 2, spanS: 30, faultsApplied: 1 },
      }),
      run('redis/fence/client-pause', 1, { writes: { accepted: 0, rejected: 40, unknown: 0 }, useless: true }),
      run('redlock/none/client-pause', 1, {
        status: 'error',
        outcome: 'error',
        evidence: null,
        error: `spawn failed: ${EVIL}`,
        dir: null,
        log: '/out/runs/log',
      }),
    ],
    shards: [],
    description: `lock-counter ${EVIL}`,
    warnings: [`warn ${EVIL}`],
  };
  return buildCompareReport(input, expect === null ? null : parseExpectations(expect, 'e.json'), { outDir: '/out', generatedAt: '2026-11-29T12:00:00Z' });
}

const EXPECT = JSON.stringify([
  { resource: 'none', expect: 'unsafe', note: EVIL },
  { resource: 'fence', expect: 'safe', useful: true },
  { backend: 'etcd', expect: 'safe' },
]);

describe('compare.html', () => {
  const html = renderCompareHtml(report(EXPECT));

  it('renders every value as text: no markup, no script, no scheme in links', () => {
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toContain(EVIL);
    expect(html).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(#[A-Za-z0-9_-]+|[^:<>"]+)$/);
  });

  it('links each seed to its report, relative to the page, and greys n/a cells with a numbered reason', () => {
    expect(html).toContain('href="runs/1/report.html"');
    expect(html).toContain('href="runs/%3Cscript%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E/report.html"');
    expect(html).toMatch(
      /<td id="cell-redlock_fence_client-pause" class="cell o-not-applicable" title="redlock issues no monotonic fencing token[^"]*">n\/a <a href="#na-1">\[1\]<\/a><\/td>/,
    );
    expect(html).toMatch(/<li id="na-1">redlock issues no monotonic fencing token/);
  });

  it('colours unsafe cells by rate and shows counts, kinds, rejected writes and expectations', () => {
    expect(html).toMatch(/class="cell o-unsafe" style="background:hsl\(0 75% 76%\)"><div class="big">1\/2/);
    expect(html).toContain('<div class="kinds">lost-update 3, a|b &lt;/script&gt;');
    expect(html).toContain('40 of 40 writes rejected');
    expect(html).toContain('safe but useless in 1 of 1');
    expect(html).toContain('✗ expected safe (#2)');
    expect(html).toContain('✗ #3 <code>{&quot;backend&quot;:&quot;etcd&quot;,&quot;expect&quot;:&quot;safe&quot;}</code>');
  });

  it("shows a cell's cost and, on the jobs workload, its jobs run twice", () => {
    expect(html).toContain(
      '<div class="cost" title="sections completed per second (mean over runs), refusals, retries and timeouts summed, the worst section p99">cost: 2.5 sections/s over 1 run; 1 refused, 1 retries, 0 timeouts; section p99 1200 ms</div>',
    );
    expect(html).toContain(
      '14.3 duplicates per 1,000 jobs (95% CI 2.5–76.6), 1 of 70 jobs done twice, 0 lost, 2 wasted run(s) refused, over 1 run(s); 120.0 per hour at 2.0 faults a minute',
    );
  });
});

describe('junit.xml', () => {
  it('is well-formed, with one case per cell plus one per expectation naming no cell', () => {
    const text = renderJunit(report(EXPECT));
    const stripped = text.replace(/^<\?xml[^?]*\?>/, '').replace(/<\/?[a-z-]+(\s+[a-z-]+="[^"<]*")*\s*\/?>/g, '');
    expect(stripped).not.toMatch(/[<>]/);
    expect(stripped.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toContain('&');
    expect(text).not.toContain('\u0001');
    expect(text).toContain('<testsuites name="fencecheck compare" tests="5" failures="3" errors="0" skipped="1"');
    expect(text).toContain('<skipped message="not applicable: redlock issues');
    expect(text).toContain(
      '<failure type="expectation" message="expected safe (expectation #2): 1 run valid (2 of 2 fault windows struck; 1 double hold, 0 refusals), but the fence rejected every write in 1 of 1 runs (safe but useless)"',
    );
    expect(text).toContain('name="expectation #3"');
  });

  it('without expectations, fails unsafe cells and errors unknown ones', () => {
    const text = renderJunit(report());
    expect(text).toContain('tests="4" failures="1" errors="1" skipped="1"');
    expect(text).toContain(
      '<failure type="invalid" message="1 of 2 runs invalid (lost-update 3, a|b &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; 1), 0 unknown, 0 missing; 4 of 4 fault windows struck; 2 double holds, 0 refusals">',
    );
    expect(text).toContain('<error type="unknown"');
  });

  it('escapes the five characters and replaces what XML cannot hold', () => {
    expect(xml(`<a href="x">'&'</a>\u0000\uD800`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;\uFFFD\uFFFD');
  });
});

describe('summary.md', () => {
  const text = renderSummaryMd(report(EXPECT));

  it('has a matrix table that values cannot break', () => {
    const rows = text.split('\n').filter((l) => l.startsWith('| '));
    expect(rows[0]).toBe('| backend | resource | client-pause |');
    for (const r of rows) expect(r.replace(/\\\|/g, '').split('|')).toHaveLength(5);
    expect(rows).toContain('| redis | none | ❌ 1/2 (50%) 🎯 |');
    expect(rows).toContain('| redlock | fence | ➖ n/a |');
  });

  it('lists unmet expectations, useless fences, failed runs and how to reproduce, with no raw HTML', () => {
    expect(text.startsWith('## fencecheck compare: ❌ 3 of 3 expectations unmet')).toBe(true);
    expect(text).toContain(
      '- #2 `{"resource":"fence","expect":"safe","useful":true}`: **redis/fence/client-pause**: 1 run valid (2 of 2 fault windows struck; 1 double hold, 0 refusals), but the fence rejected',
    );
    expect(text).toContain('- #3 `{"backend":"etcd","expect":"safe"}` names no cell of the matrix');
    expect(text).toContain('### Safe but useless');
    expect(text).toContain('spawn failed: \\</script\\>\\<img src=x onerror=alert(1)\\>');
    expect(text).toMatch(/### Reproduce\n\n- \*\*redis\/none\/client-pause\*\* seed 1/);
    expect(text.replace(/`[^`]*`/g, '')).not.toMatch(/(?<!\\)<img/);
  });

  it('fences code spans around backticks', () => {
    expect(code('a `b` c')).toBe('``a `b` c``');
    expect(code('`x')).toBe('`` `x ``');
    expect(md('a|b*c')).toBe('a\\|b\\*c');
  });
});

describe('untested cells', () => {
  const untested = (cellId: string, seed: number): RunSummary =>
    run(cellId, seed, {
      outcome: 'untested',
      untestedWhy: 'no fault applied',
      evidence: { faults: { planned: 0, applied: 0, skipped: [], failed: [] }, protection: { doubleHolds: 0, refusals: 0 } },
      informational: { 'double-hold': 2 },
    });
  const input: MatrixInput = {
    backends: ['redis'],
    resources: ['fence'],
    nemeses: ['none', 'client-pause'],
    planned: new Map([
      ['redis/fence/none', [1]],
      ['redis/fence/client-pause', [1]],
    ]),
    runs: [untested('redis/fence/none', 1), run('redis/fence/client-pause', 1, { writes: { accepted: 8, rejected: 2, unknown: 0 } })],
    shards: [],
    description: 'lock-counter',
    warnings: [],
  };
  const plain = buildCompareReport(input, null, { outDir: '/out', generatedAt: '2026-11-29T12:00:00Z' });
  const expected = buildCompareReport(input, parseExpectations(JSON.stringify([{ expect: 'safe' }]), 'e.json'), {
    outDir: '/out',
    generatedAt: '2026-11-29T12:00:00Z',
  });

  it('are their own outcome in compare.json and the headline', () => {
    expect(plain.cells.map((c) => [c.id, c.outcome])).toEqual([
      ['redis/fence/none', 'untested'],
      ['redis/fence/client-pause', 'safe'],
    ]);
    expect(plain.headline).toBe('all 2 runs valid, but 1 cell untested (no fault struck, or the lock never failed)');
    expect(expected.exitCode).toBe(1);
    expect(expected.expectations![0]!.unmet).toEqual([
      { cellId: 'redis/fence/none', reason: 'untested: 1 run valid, none showing the danger (no fault applied)' },
    ]);
  });

  it('have their own colour and word in compare.html, with the information of non-deciding checkers', () => {
    const html = renderCompareHtml(plain);
    expect(html).toContain('class="cell o-untested"');
    expect(html).toContain('<div class="untested">untested: no fault applied</div>');
    expect(html).toContain('information: double-hold 2');
    expect(html).toMatch(/\.o-untested\{background:/);
  });

  it('are marked in summary.md and listed with why', () => {
    const text = renderSummaryMd(plain);
    expect(text).toContain('| redis | fence | 🔲 untested 0/0 struck | ✅ 0/1 ⚡1 🛡0 |');
    expect(text).toContain('### Untested\n\n- **redis/fence/none**: no fault applied (0 of 0 fault windows struck; 0 double holds, 0 refusals)');
  });

  it('a safe cell with untested seeds is listed there too, with how many and why', () => {
    const mixed = buildCompareReport(
      {
        ...input,
        nemeses: ['client-pause'],
        planned: new Map([['redis/fence/client-pause', [1, 2]]]),
        runs: [run('redis/fence/client-pause', 1, { writes: { accepted: 8, rejected: 2, unknown: 0 } }), untested('redis/fence/client-pause', 2)],
      },
      null,
      { outDir: '/out', generatedAt: '2026-11-29T12:00:00Z' },
    );
    expect(mixed.cells[0]!.outcome).toBe('safe');
    expect(renderSummaryMd(mixed)).toContain('### Untested\n\n- **redis/fence/client-pause**: safe, but 1 of 2 runs untested: no fault applied');
  });

  it('are skipped with why in junit.xml without expectations, failures with them', () => {
    expect(renderJunit(plain)).toContain('<skipped message="untested: no fault applied"/>');
    expect(renderJunit(expected)).toContain(
      '<failure type="expectation" message="expected safe (expectation #1): untested: 1 run valid, none showing the danger (no fault applied)"',
    );
  });
});
