/**
 * The index of runs as one static HTML page: a table of every run under a
 * results directory, newest first, with its verdict, what it ran, each
 * checker's mark, its anomaly count, and a link to its report. No script:
 * every value is escaped text, and the page's policy forbids scripts outright.
 */
import { escapeHtml, htmlDocument } from './html-text.js';
import type { RunSummary, SummaryPage } from './list-runs.js';
import type { Validity } from '../../core/run-files/results-json.js';

const STYLE = `
body { margin: 0; font: 13px/1.45 system-ui, -apple-system, "Segoe UI", "Liberation Sans", "DejaVu Sans", sans-serif; color: #1f2328; }
main { padding: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 4px; }
p.sub { color: #636c76; margin: 0 0 12px; }
table { border-collapse: collapse; width: 100%; }
td.nowrap { white-space: nowrap; }
th, td { text-align: left; padding: 5px 10px 5px 0; border-bottom: 1px solid #d8dee4; vertical-align: top; }
th { color: #636c76; font-weight: 500; }
a { color: #0969da; text-decoration: none; font-weight: 600; }
a:hover { text-decoration: underline; }
.v { font-weight: 700; border-radius: 6px; padding: 1px 8px; color: #fff; font-size: 12px; white-space: nowrap; }
.untested { font-size: .8em; font-weight: 600; color: #57606a; } .v-false { background: #cf222e; } .v-true { background: #1a7f37; } .v-unknown, .v-none { background: #9a6700; }
.c { white-space: nowrap; margin-right: 8px; }
.c-false { color: #cf222e; } .c-true { color: #1a7f37; } .c-unknown { color: #9a6700; }
.muted { color: #636c76; }
.problem { color: #cf222e; }
code { font-family: ui-monospace, "Liberation Mono", "DejaVu Sans Mono", monospace; font-size: 12px; }
`;

const VERDICT = { true: 'VALID', false: 'INVALID', unknown: 'UNKNOWN', none: 'NOT CHECKED' } as const;
const MARK = { true: '✓', false: '✗', unknown: '?' } as const;

export interface IndexOptions {
  /** The comparisons' and debates' pages to link. */
  pages?: readonly SummaryPage[];
  /** `fencecheck serve` writes a report when it is asked for: link every run with a history. */
  reportsOnRequest?: boolean;
}

export function renderIndexHtml(runs: readonly RunSummary[], title: string, opts: IndexOptions = {}): string {
  const onRequest = opts.reportsOnRequest ?? true;
  const pages = opts.pages ?? [];
  const counts = { false: 0, unknown: 0, true: 0, none: 0 };
  for (const r of runs) counts[key(r.valid)]++;
  const rows = runs.map((r) => row(r, onRequest)).join('\n');
  const pageList =
    pages.length === 0
      ? ''
      : `<h2>Comparisons and debates</h2>\n<ul>\n${pages.map((p) => `<li>${p.kind === 'compare' ? 'compare' : 'debate'}: <a href="${escapeHtml(p.path.split('/').map(encodeURIComponent).join('/'))}">${escapeHtml(p.path)}</a></li>`).join('\n')}\n</ul>`;
  const summary = `${title} · ${runs.length} run${runs.length === 1 ? '' : 's'}: ${counts.false} invalid, ${counts.unknown} unknown, ${counts.true} valid, ${counts.none} not checked`;
  const table = `<table>
<thead><tr><th>verdict</th><th>run</th><th>started</th><th>backend</th><th>resource</th><th>workload</th><th>nemeses</th><th>seed</th><th>checkers</th><th>anomalies</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  return htmlDocument({
    title: `fencecheck runs · ${title}`,
    csp: "default-src 'none'; style-src 'unsafe-inline'",
    style: STYLE,
    body: `<main>
<h1>fencecheck runs</h1>
<p class="sub">${escapeHtml(summary)}</p>
${pageList}
${runs.length === 0 ? '<p class="muted">No runs yet: run <code>fencecheck run</code> and they appear here.</p>' : table}
</main>`,
  });
}

function row(r: RunSummary, onRequest: boolean): string {
  const t: Partial<Record<string, unknown>> = { ...r.test };
  const text = (v: unknown): string => escapeHtml(Array.isArray(v) ? v.join(', ') : v === undefined || v === null ? '' : String(v));
  const href = `${r.path.split('/').map(encodeURIComponent).join('/')}/report.html`;
  const linked = r.hasHistory && (onRequest || r.hasReport);
  const name = linked ? `<a href="${escapeHtml(href)}">${escapeHtml(r.name)}</a>` : escapeHtml(r.name);
  const noReport = r.hasHistory && !linked ? `<div class="muted">no report yet: <code>fencecheck report ${escapeHtml(r.dir)}</code></div>` : '';
  const checkers = r.checkers
    .map(
      (c) =>
        `<span class="c c-${key(c.valid)}" title="${escapeHtml(c.summary ?? '')}">${MARK[key(c.valid) as keyof typeof MARK] ?? '?'} ${escapeHtml(c.checker)}</span>`,
    )
    .join(' ');
  const problem = r.problem === undefined ? '' : `<div class="problem">${escapeHtml(r.problem)}</div>`;
  return `<tr data-run="${escapeHtml(r.path)}"><td><span class="v v-${key(r.valid)}">${VERDICT[key(r.valid)]}</span>${r.untested === null ? '' : `<div class="untested" title="${escapeHtml(r.untested)}">untested</div>`}${interruptedMark(t)}</td><td>${name}<div class="muted"><code>${escapeHtml(r.path)}</code></div>${noReport}${problem}</td><td class="nowrap">${text(t['startedAt'])}</td><td>${text(t['backend'])}</td><td>${text(t['resource'])}</td><td>${text(t['workload'])}</td><td>${text(t['nemesis'] ?? t['nemeses'])}</td><td>${text(t['seed'])}</td><td>${checkers}</td><td>${r.valid === null ? '' : r.anomalies}</td></tr>`;
}

function key(v: Validity | null): 'true' | 'false' | 'unknown' | 'none' {
  return v === true ? 'true' : v === false ? 'false' : v === 'unknown' ? 'unknown' : 'none';
}

/** A run stopped by a signal, as test.json records it. */
function interruptedMark(t: Record<string, unknown>): string {
  const i = t['interrupted'];
  if (typeof i !== 'object' || i === null) return '';
  const { signal, at } = i as { signal?: unknown; at?: unknown };
  return `<div class="untested" title="${escapeHtml(`stopped by ${String(signal)} at ${String(at)}`)}">interrupted</div>`;
}
