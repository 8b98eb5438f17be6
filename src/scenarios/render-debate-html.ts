/**
 * debate.html: the debate as one self-contained page with no script. One
 * table, a group of rows per scenario (its claim and both sides'
 * predictions span the group), one row per variant with the outcome the
 * debate agrees on, the measured verdict over the seeds, what else the runs
 * show, and a link per seed to that run's report.
 *
 * Every value goes through escapeHtml, and every link is a relative path with
 * each segment percent-encoded (compare's `href`), so no value can become
 * markup or a `javascript:` URL.
 */
import { escapeHtml } from '../report/html-text.js';
import { formatDuration } from '../compare/format-units.js';
import { href } from '../compare/render-compare-html.js';
import type { DebateReport, DebateRow, DebateRunLink, DebateScenario } from './debate-report.js';
import type { PropertySummary } from './summarize-variant.js';

const h = escapeHtml;

export function renderDebateHtml(report: DebateReport): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fencecheck: the Redlock debate, measured</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>The Redlock debate, measured</h1>
<p class="headline v-${report.exitCode === 0 ? 'ok' : report.exitCode === 1 ? 'bad' : 'unknown'}">${h(report.headline)}</p>
<p class="meta">seeds ${h(report.seeds.join(', ') || 'none')}${report.durationMs === null ? '' : ` · ${h(formatDuration(report.durationMs))}`} · generated ${h(report.generatedAt)} · Kleppmann, <em>How to do distributed locking</em> (2016); antirez, <em>Is Redlock safe?</em> (2016)</p>
</header>
<table class="debate">
<thead><tr><th>scenario</th><th>claim</th><th>Kleppmann predicts</th><th>antirez predicts</th><th>variant</th><th>agreed outcome</th><th>measured</th><th>runs</th></tr></thead>
${report.scenarios.map(renderScenario).join('\n')}
</table>
${LEGEND}
</body>
</html>
`;
}

function renderScenario(s: DebateScenario): string {
  const span = Math.max(1, s.rows.length);
  const head =
    `<th scope="rowgroup" rowspan="${span}" class="scenario"><div class="id">${h(s.id)}</div><div class="title">${h(s.title)}</div>` +
    `<details><summary>setup</summary><p>${h(s.setup)}</p><p class="recipe">${h(s.recipe)}</p></details></th>` +
    `<td rowspan="${span}" class="claim">${h(s.claim)}${s.notReproduced === null ? '' : `<div class="not-reproduced">not reproduced: ${h(s.notReproduced)}</div>`}</td>` +
    `<td rowspan="${span}" class="side">${h(s.predictions.kleppmann)}</td><td rowspan="${span}" class="side">${h(s.predictions.antirez)}</td>`;
  const rows =
    s.rows.length === 0
      ? [`<tr>${head}<td colspan="4"></td></tr>`]
      : s.rows.map((r, i) => `<tr class="m-${r.match}">${i === 0 ? head : ''}${renderRow(r)}</tr>`);
  return `<tbody id="${h(anchor(s.id))}">\n${rows.join('\n')}\n</tbody>`;
}

function renderRow(r: DebateRow): string {
  const expected =
    r.expected === null
      ? '<span class="none">not agreed</span>'
      : `${[r.expected.lock ? `lock ${r.expected.lock}` : '', r.expected.data ? `data ${r.expected.data}` : '']
          .filter((x) => x !== '')
          .map(h)
          .join('<br>')}<div class="why">${h(r.expected.why)}</div>`;
  const measured =
    r.status === 'measured'
      ? `${property('data', r.data)}${property('lock', r.lock)}<div class="match" title="${h(r.matchReason)}">${h(MATCH_TEXT[r.match])}</div>${r.notes.length === 0 ? '' : `<ul class="notes">${r.notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`}`
      : `<div class="not-run">${h(r.verdict)}</div>`;
  return `<td class="variant"><code>${h(r.label)}</code><div>${h(r.text)}</div></td><td class="expected">${expected}</td><td class="measured">${measured}</td><td class="runs">${r.runs.map(runLink).join('<br>')}</td>`;
}

function property(name: 'lock' | 'data', p: PropertySummary): string {
  return `<div class="p o-${p.outcome}"><b>${name}</b> ${h(p.text)}</div>`;
}

const MARK: Record<DebateRunLink['status'], string> = { valid: '✓', invalid: '✗', unknown: '?', error: '!' };

function runLink(run: DebateRunLink): string {
  const label = `seed ${run.seed} ${MARK[run.status]}`;
  const title = h(`${run.status}${run.error ? `: ${run.error}` : ''} · replay: ${run.replay}${run.sharedFrom ? ` · run for ${run.sharedFrom}` : ''}`);
  return run.link === null
    ? `<span class="s-${run.status}" title="${title}">${h(label)}</span>`
    : `<a class="s-${run.status}" href="${href(run.link)}" title="${title}">${h(label)}</a>`;
}

const MATCH_TEXT: Record<DebateRow['match'], string> = {
  'as-expected': '✓ as the debate agrees',
  differs: '✗ differs from the agreed outcome',
  undecided: '? undecided',
  'no-expectation': 'disputed: see the predictions',
};

/** An element id for a scenario: letters, digits, - and _ only. */
function anchor(id: string): string {
  return `scenario-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

const LEGEND = `<p class="legend"><b>lock</b>: the lock was held by two clients at once (mutual-exclusion checker). <b>data</b>: the resource was damaged (lost updates, stale writes accepted, interleaved sections). A fence keeps the data safe while the lock itself is held twice. Seeds: ✓ valid ✗ invalid ? unknown ! tool error; hover a seed for its replay command.</p>`;

/** Jepsen's outcome colours, as compare.html uses them: safe green, unsafe red, unknown amber. */
const STYLE = `
:root{--safe:#d7f0d4;--unsafe:#f6c8c8;--unknown:#fbe7a6;--grid:#ccc}
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{margin:0 0 .2em}.meta,.legend{color:#555}.legend{font-size:.9em}
.headline{display:inline-block;padding:.3em .6em;border-radius:4px;font-size:1.1em;font-weight:600}
.v-ok,.o-safe{background:var(--safe)}.v-bad,.o-unsafe{background:var(--unsafe)}.v-unknown,.o-unknown{background:var(--unknown)}.o-not-run{background:#eee}
table.debate{border-collapse:collapse;width:100%}
.debate th,.debate td{border:1px solid var(--grid);padding:.35em .5em;vertical-align:top;text-align:left}
tbody{border-top:3px solid #888}
.scenario .id{font-size:1.3em}.scenario .title{font-weight:400;max-width:14em}
.claim,.side{max-width:22em;font-size:.9em}
.not-reproduced{margin-top:.5em;color:#8a6d00;font-weight:600}
.why,.none{color:#666;font-size:.85em}
.p{padding:.1em .3em;margin-bottom:.2em;border-radius:3px}
.match{font-size:.85em;font-weight:600}
tr.m-differs .match{color:#900}tr.m-as-expected .match{color:#185c18}tr.m-undecided .match{color:#8a6d00}
.notes{margin:.3em 0 0 1.2em;padding:0;font-size:.8em;color:#444}
.not-run{color:#777}
.runs a,.runs span{white-space:nowrap}
.s-invalid{color:#900}.s-unknown,.s-error{color:#8a6d00}
details{font-weight:400;font-size:.85em;margin-top:.4em}.recipe{font-family:monospace}
`;
