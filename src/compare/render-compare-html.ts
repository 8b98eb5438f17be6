/**
 * compare.html: the matrix as one self-contained page with no script at all.
 * Rows are backend × resource, columns nemeses; each cell shows invalid runs
 * of finished runs, the rate, the anomalies by kind, the writes a fence
 * rejected, the expectation that decided it, and a link per seed to that
 * run's report. Colour says the outcome, and for unsafe cells the rate (the
 * darker, the more runs broke). Cells that cannot run are grey with their
 * reason as a numbered note.
 *
 * Every value from a run, a file or a flag goes through escapeHtml, and every
 * link is a relative path with each segment percent-encoded, so no value can
 * become markup or a `javascript:` URL.
 */
import { escapeHtml } from '../report/html-text.js';
import { cellWeight, describeCost, describeEvidence, formatKinds, type CellOutcome } from './cell-summary.js';
import { describeJobs } from './cell-jobs.js';
import type { CompareReport, ReportCell, ReportRun } from './compare-report.js';
import { formatDuration, formatRate } from './format-units.js';

const h = escapeHtml;

export function renderCompareHtml(report: CompareReport): string {
  const notes: string[] = [];
  const noteOf = (reason: string): number => {
    const i = notes.indexOf(reason);
    return i >= 0 ? i + 1 : notes.push(reason);
  };
  const matrix = renderMatrix(report, noteOf);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fencecheck compare: ${h(report.headline)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>fencecheck compare</h1>
<p class="headline v-${verdictClass(report)}">${h(report.headline)}</p>
<p class="meta">${h(report.description)} · seeds ${h(report.seeds.join(', ') || 'none')}${report.shards.length > 0 ? ` · shards ${h(report.shards.join(', '))}` : ''} · generated ${h(report.generatedAt)}</p>
</header>
${renderWarnings(report.warnings)}${renderExpectations(report)}<section>
<h2>Matrix</h2>
${matrix}
${LEGEND}
${notes.length === 0 ? '' : `<ol class="notes">${notes.map((n, i) => `<li id="na-${i + 1}">${h(n)}</li>`).join('')}</ol>`}
</section>
${renderRuns(report)}
</body>
</html>
`;
}

function verdictClass(r: CompareReport): string {
  if (r.expectations !== null) return r.exitCode === 0 ? 'ok' : 'bad';
  return r.verdict === true ? 'ok' : r.verdict === false ? 'bad' : 'unknown';
}

function renderMatrix(r: CompareReport, noteOf: (reason: string) => number): string {
  const byId = new Map(r.cells.map((c) => [c.id, c]));
  const rows: string[] = [];
  for (const backend of r.axes.backends) {
    r.axes.resources.forEach((resource, i) => {
      const head = i === 0 ? `<th scope="rowgroup" rowspan="${r.axes.resources.length}" class="backend">${h(backend)}</th>` : '';
      const tds = r.axes.nemeses.map((nemesis) => renderCell(byId.get(`${backend}/${resource}/${nemesis}`)!, noteOf));
      rows.push(`<tr>${head}<th scope="row" class="resource">${h(resource)}</th>${tds.join('')}</tr>`);
    });
  }
  const cols = r.axes.nemeses.map((n) => `<th scope="col">${h(n)}</th>`).join('');
  return `<table class="matrix">\n<thead><tr><th>backend</th><th>resource</th>${cols}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

function renderCell(c: ReportCell, noteOf: (reason: string) => number): string {
  const id = `id="${cellAnchor(c.id)}"`;
  if (c.outcome === 'not-applicable') {
    const n = noteOf(c.notApplicable ?? '');
    return `<td ${id} class="cell o-not-applicable" title="${h(c.notApplicable ?? '')}">n/a <a href="#na-${n}">[${n}]</a></td>`;
  }
  if (c.outcome === 'not-run') return `<td ${id} class="cell o-not-run">not run here</td>`;
  const n = c.runs.length;
  const parts = [
    `<div class="big">${c.invalid}/${n}<span class="unit"> invalid</span></div>`,
    `<div class="rate">${c.rate === null ? 'no run finished' : `${formatRate(c.rate)} of runs`}${c.unknown > 0 ? ` · ${c.unknown} unknown` : ''}${c.missingSeeds.length > 0 ? ` · ${c.missingSeeds.length} missing` : ''}</div>`,
  ];
  if (c.outcome === 'untested') parts.push(`<div class="untested">untested: ${h(c.untestedWhy ?? 'no evidence that the faults struck')}</div>`);
  const kinds = formatKinds(c.anomalies);
  if (kinds !== '') parts.push(`<div class="kinds">${h(kinds)}</div>`);
  parts.push(`<div class="evidence">${h(describeEvidence(c.evidence))}</div>`);
  if (c.outcome === 'safe') parts.push(`<div class="weight">${h(cellWeight(c))}</div>`);
  const info = formatKinds(c.informational);
  if (info !== '') parts.push(`<div class="info" title="reported by checkers that do not decide this workload">information: ${h(info)}</div>`);
  if (c.jobs)
    parts.push(
      `<div class="jobs" title="the jobs workload: jobs done twice, with Wilson's 95% interval and the spread between seeds">${h(describeJobs(c.jobs))}</div>`,
    );
  if (c.cost)
    parts.push(
      `<div class="cost" title="sections completed per second (mean over runs), refusals, retries and timeouts summed, the worst section p99">cost: ${h(describeCost(c.cost))}</div>`,
    );
  if (c.writes && c.writes.rejected > 0)
    parts.push(`<div class="writes">${c.writes.rejected} of ${c.writes.accepted + c.writes.rejected + c.writes.unknown} writes rejected</div>`);
  if (c.uselessRuns > 0) parts.push(`<div class="badge">safe but useless in ${c.uselessRuns} of ${n}</div>`);
  if (c.expectation) {
    const e = c.expectation;
    parts.push(`<div class="expect ${e.met ? 'met' : 'unmet'}" title="${h(e.reason)}">${e.met ? '✓' : '✗'} expected ${h(e.expect)} (#${e.expectation})</div>`);
  }
  parts.push(
    `<div class="seeds">${c.runs.map(seedLink).join(' ')}${c.missingSeeds.map((s) => ` <span class="missing" title="not run">s${s} ?</span>`).join('')}</div>`,
  );
  return `<td ${id} class="cell o-${c.outcome}${c.expectation && !c.expectation.met ? ' unmet' : ''}"${cellStyle(c.outcome, c.rate)}>${parts.join('')}</td>`;
}

const MARK: Record<ReportRun['status'], string> = { valid: '✓', invalid: '✗', unknown: '?', error: '!' };

function seedLink(run: ReportRun): string {
  const label = `s${run.seed} ${MARK[run.status]}`;
  const title = h(`seed ${run.seed}: ${run.status}${run.error ? `: ${run.error}` : ''}`);
  return run.link === null
    ? `<span class="s-${run.status}" title="${title}">${h(label)}</span>`
    : `<a class="s-${run.status}" href="${href(run.link)}" title="${title}">${h(label)}</a>`;
}

/** Unsafe cells darken with the rate of invalid runs. */
function cellStyle(outcome: CellOutcome, rate: number | null): string {
  if (outcome !== 'unsafe' || rate === null) return '';
  return ` style="background:hsl(0 75% ${Math.round(90 - 28 * rate)}%)"`;
}

function renderExpectations(r: CompareReport): string {
  if (r.expectations === null) return '';
  const items = r.expectations.map((e) => {
    const ok = e.unmet.length === 0 && !e.matchedNoCell;
    const detail = e.matchedNoCell
      ? '<div>names no cell of the matrix: check its patterns</div>'
      : e.unmet.map((u) => `<div><a href="#${cellAnchor(u.cellId)}">${h(u.cellId)}</a>: ${h(u.reason)}</div>`).join('');
    return `<li class="${ok ? 'met' : 'unmet'}">${ok ? '✓' : '✗'} #${e.index} <code>${h(e.text)}</code> (${e.decided} cells)${e.note ? ` <em>${h(e.note)}</em>` : ''}${detail}</li>`;
  });
  return `<section>\n<h2>Expectations</h2>\n<ul class="expectations">${items.join('\n')}</ul>\n</section>\n`;
}

function renderRuns(r: CompareReport): string {
  const rows = r.cells.flatMap((c) =>
    c.runs.map((run) => {
      const links = [
        run.link ? `<a href="${href(run.link)}">report</a>` : '',
        run.runDir ? `<a href="${href(run.runDir)}">dir</a>` : '',
        run.log ? `<a href="${href(run.log)}">log</a>` : '',
      ].filter((l) => l !== '');
      const what =
        run.error ?? (run.failing.join('; ') || formatKinds(run.anomalies) || (run.outcome === 'untested' ? `untested: ${run.untestedWhy ?? ''}` : ''));
      return `<tr class="s-${run.status}"><td><a href="#${cellAnchor(c.id)}">${h(c.id)}</a></td><td>${run.seed}</td><td>${h(run.status)}</td><td>${h(run.outcome)}</td><td>${run.durationMs === null ? '' : h(formatDuration(run.durationMs))}</td><td>${h(what)}</td><td>${links.join(' ')}</td><td><code>${h(run.replay ?? '')}</code></td></tr>`;
    }),
  );
  if (rows.length === 0) return '';
  return `<section>\n<h2>Runs</h2>\n<table class="runs">\n<thead><tr><th>cell</th><th>seed</th><th>status</th><th>outcome</th><th>time</th><th>what the checkers said</th><th>links</th><th>replay</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>\n</section>`;
}

function renderWarnings(warnings: readonly string[]): string {
  return warnings.length === 0 ? '' : `<ul class="warnings">${warnings.map((w) => `<li>${h(w)}</li>`).join('')}</ul>\n`;
}

/** A relative path as an href: each segment percent-encoded (so no scheme, no markup), then attribute-escaped. */
export function href(path: string): string {
  return h(path.split('/').map(encodeURIComponent).join('/'));
}

/** An element id for a cell: letters, digits, - and _ only. */
export function cellAnchor(id: string): string {
  return `cell-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

const LEGEND = `<p class="legend"><span class="cell o-safe">safe (faults struck, the lock failed, the data held)</span> <span class="cell o-untested">untested (no fault struck, or the lock never failed)</span> <span class="cell o-unsafe" style="background:hsl(0 75% 80%)">unsafe (darker: more runs invalid)</span> <span class="cell o-unknown">unknown or failed</span> <span class="cell o-incomplete">runs missing</span> <span class="cell o-not-applicable">not applicable</span> <span class="cell o-not-run">not run here</span> · seeds: ✓ valid ✗ invalid ? unknown ! tool error</p>`;

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{margin:0 0 .2em}
.headline{font-size:1.2em;font-weight:600;padding:.3em .6em;border-radius:4px;display:inline-block}
.v-ok{background:#d7f0d4}.v-bad{background:#f6c8c8}.v-unknown{background:#fbe7a6}
.meta{color:#555}
table{border-collapse:collapse}
th,td{border:1px solid #ccc;padding:.3em .5em;vertical-align:top}
.matrix td.cell{min-width:9em}
.cell .big{font-size:1.3em;font-weight:600}.cell .unit{font-size:.7em;font-weight:400}
.cell .kinds,.cell .writes,.cell .rate{font-size:.85em}
.badge{display:inline-block;background:#444;color:#fff;border-radius:3px;padding:0 .3em;font-size:.8em}
.o-safe{background:#d7f0d4}.o-unsafe{background:#f6c8c8}.o-unknown{background:#fbe7a6}.o-incomplete{background:#fdf3d0}
.o-untested{background:#dfe6f2;background-image:repeating-linear-gradient(45deg,transparent 0 6px,#fff6 6px 12px)}
.cell .evidence,.cell .info,.cell .untested,.cell .weight,.cell .jobs,.cell .cost{font-size:.85em}.cell .cost{color:#555}.cell .info{color:#555}.cell .untested{font-weight:600}
.o-not-applicable{background:#eee;color:#888}.o-not-run{background:#fafafa;color:#999;border-style:dashed}
td.unmet{outline:3px solid #b00;outline-offset:-3px}
.expect.met{color:#185c18}.expect.unmet{color:#900;font-weight:600}
.seeds a,.seeds span{margin-right:.3em}
.s-invalid{color:#900}.s-unknown,.s-error{color:#8a6d00}
.expectations li.unmet{color:#900}.expectations li div{margin-left:1.5em;color:#333}
.legend .cell{padding:0 .4em;border:1px solid #ccc}
.notes{color:#666;font-size:.9em}
.warnings{background:#fdf3d0;padding:.5em 2em}
.runs td{font-size:.9em}.runs code{font-size:.85em}
`;
