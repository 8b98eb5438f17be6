/**
 * summary.md: the comparison for a CI step summary ($GITHUB_STEP_SUMMARY) or
 * a pull-request comment. The headline, the matrix as a Markdown table (one
 * row per backend and resource, one column per nemesis), then what needs a
 * person's eyes: unmet expectations, untested cells, what the non-deciding
 * checkers reported, safe-but-useless cells, failed runs,
 * and how to reproduce the invalid runs. Values are escaped so that a pipe
 * or a bracket in them cannot break the table or make a link.
 */
import { describeCost, describeEvidence, formatKinds } from './cell-summary.js';
import { describeJobs } from './cell-jobs.js';
import type { CompareReport, ReportCell } from './compare-report.js';
import { formatRate } from './format-units.js';

const MAX_LISTED = 20;

export function renderSummaryMd(report: CompareReport): string {
  const ok = report.exitCode === 0;
  const lines = [
    `## fencecheck compare: ${ok ? '✅' : report.exitCode === 1 ? '❌' : '⚠️'} ${md(report.headline)}`,
    '',
    `${md(report.description)} · seeds ${md(report.seeds.join(', ') || 'none')}${report.shards.length > 0 ? ` · shards ${md(report.shards.join(', '))}` : ''}`,
    '',
    ...matrixTable(report),
    '',
    '✅ safe (faults struck: double holds ⚡, refusals 🛡; no lock: overlapping sections ⇄) · 🔲 untested (no fault struck, or the lock never failed) · ❌ invalid runs / finished (rate) · ⚠️ unknown or failed · ⏳ runs missing · ➖ not applicable · 🎯 expectation met, 🚩 unmet',
  ];
  const section = (title: string, items: string[]): void => {
    if (items.length === 0) return;
    lines.push('', `### ${title}`, '', ...items.slice(0, MAX_LISTED).map((i) => `- ${i}`));
    if (items.length > MAX_LISTED) lines.push(`- … and ${items.length - MAX_LISTED} more (see compare.html)`);
  };
  const cells = report.cells;
  section(
    'Unmet expectations',
    (report.expectations ?? []).flatMap((e) =>
      e.matchedNoCell
        ? [`#${e.index} ${code(e.text)} names no cell of the matrix`]
        : e.unmet.map((u) => `#${e.index} ${code(e.text)}: **${md(u.cellId)}**: ${md(u.reason)}`),
    ),
  );
  section('Untested', [
    ...cells
      .filter((c) => c.outcome === 'untested')
      .map((c) => `**${md(c.id)}**: ${md(c.untestedWhy ?? 'no evidence that the faults struck')} (${md(describeEvidence(c.evidence))})`),
    // A safe cell's weight counts only its tested runs: the seeds that showed nothing are said, not hidden in the mark.
    ...cells
      .filter((c) => c.outcome === 'safe' && c.untestedRuns > 0)
      .map(
        (c) => `**${md(c.id)}**: safe, but ${c.untestedRuns} of ${c.runs.length} runs untested: ${md(c.untestedWhy ?? 'no evidence that the faults struck')}`,
      ),
  ]);
  section(
    'Information (checkers that do not decide)',
    cells.filter((c) => Object.keys(c.informational).length > 0).map((c) => `**${md(c.id)}**: ${md(formatKinds(c.informational))}`),
  );
  section(
    'Cost (sections completed per second, averaged over runs; refusals, retries, timeouts summed; worst section p99)',
    cells.filter((c) => c.cost !== null).map((c) => `**${md(c.id)}**: ${md(describeCost(c.cost!))}`),
  );
  section(
    "Jobs (done twice per 1,000 jobs, pooled, Wilson 95% CI; the spread over seeds; per hour at the runs' fault rate)",
    cells.filter((c) => c.jobs !== null).map((c) => `**${md(c.id)}**: ${md(describeJobs(c.jobs!))}`),
  );
  section(
    'Safe but useless',
    cells.filter((c) => c.uselessRuns > 0).map((c) => `**${md(c.id)}**: the fence rejected every write in ${c.uselessRuns} of ${c.runs.length} runs`),
  );
  section(
    'Runs that failed to run or check',
    cells.flatMap((c) =>
      c.runs.filter((r) => r.status === 'error' || r.status === 'unknown').map((r) => `**${md(c.id)}** seed ${r.seed}: ${md(r.error ?? r.failing.join('; '))}`),
    ),
  );
  section(
    'Reproduce',
    cells.flatMap((c) =>
      c.runs
        .filter((r) => r.status === 'invalid')
        .map((r) => `**${md(c.id)}** seed ${r.seed} (${md(formatKinds(r.anomalies))}): ${code(r.replay ?? '?')}${r.runDir ? ` in ${code(r.runDir)}` : ''}`),
    ),
  );
  section('Warnings', report.warnings.map(md));
  return lines.join('\n') + '\n';
}

function matrixTable(r: CompareReport): string[] {
  const byId = new Map(r.cells.map((c) => [c.id, c]));
  const rows = [`| backend | resource | ${r.axes.nemeses.map(md).join(' | ')} |`, `|---|---|${r.axes.nemeses.map(() => '---|').join('')}`];
  for (const backend of r.axes.backends) {
    for (const resource of r.axes.resources) {
      const cells = r.axes.nemeses.map((n) => cellText(byId.get(`${backend}/${resource}/${n}`)!));
      rows.push(`| ${md(backend)} | ${md(resource)} | ${cells.join(' | ')} |`);
    }
  }
  return rows;
}

function cellText(c: ReportCell): string {
  const mark = c.expectation === null ? '' : c.expectation.met ? ' 🎯' : ' 🚩';
  const n = c.runs.length;
  switch (c.outcome) {
    case 'not-applicable':
      return '➖ n/a';
    case 'not-run':
      return '·';
    case 'safe':
      return `✅ 0/${n} ⚡${c.evidence.doubleHolds} 🛡${c.evidence.refusals}${c.evidence.overlaps !== undefined ? ` ⇄${c.evidence.overlaps}` : ''}${c.uselessRuns > 0 ? ' (useless)' : ''}${mark}`;
    case 'untested':
      return `🔲 untested ${c.evidence.applied}/${c.evidence.planned} struck${mark}`;
    case 'unsafe':
      return `❌ ${c.invalid}/${n} (${formatRate(c.rate ?? 0)})${mark}`;
    case 'unknown':
      return `⚠️ ${c.unknown}/${n} unknown${mark}`;
    case 'incomplete':
      return `⏳ ${n}/${c.planned.length}${mark}`;
  }
}

/** Text that stays text in Markdown: no table breaks, links (no bare `[`), emphasis or HTML. */
export function md(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/** An inline code span that holds any text (a fence longer than any backtick run inside). */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${fence}`;
}
