/**
 * A queue run's report.html (pure): the verdict, the counts with the duplicates'
 * rate and interval, every anomaly as the checker wrote it, a timeline with one
 * lane per worker (each delivery a bar from its take to its completion, its effect
 * a mark on it, the fault windows shaded), and each duplicated job's deliveries in
 * order: who took it, with which attempt, when its effect landed, what the queue
 * said to its completion.
 *
 * Rendered on the server into one file with no script at all (a lock run's report
 * draws with d3; a queue's picture is small enough to be static SVG), so its
 * Content Security Policy allows none, and every value goes through escapeHtml.
 */
import { escapeHtml, htmlDocument } from './html-text.js';
import type { QueueResults } from '../../core/queue/queue-outcome.js';
import type { QueueDelivery, QueueTimeline } from './queue-timeline.js';
import { perThousand, wilsonInterval } from '../../core/checkers/lock/rate-interval.js';

export interface QueueReportInput {
  /** test.json's facts as they read (name, library, client, backend, resource, nemesis, seed, replay). */
  facts: { name: string; library?: string; client: string; backend: string; resource: string; nemesis: readonly string[]; seed: number; replay?: string };
  results: QueueResults;
  timeline: QueueTimeline;
  generator: string;
}

const LANE = 22;
const GUTTER = 60;
const WIDTH = 1100;
/** More anomalies than this are counted, not listed: the first ones say what happened. */
const MAX_ANOMALIES = 200;
const MAX_DUPLICATES = 50;

export function renderQueueReportHtml(input: QueueReportInput): string {
  const { facts, results } = input;
  const e = escapeHtml;
  return htmlDocument({
    title: `fencecheck · ${facts.name}`,
    csp: "default-src 'none'; style-src 'unsafe-inline'",
    style: STYLE,
    body: `<main>
<header>
<h1>${e(facts.name)}</h1>
<p class="outcome ${e(results.outcome)}">${e(results.outcome.toUpperCase())}${results.untestedWhy ? `: ${e(results.untestedWhy)}` : ''}</p>
<p>${e(facts.library ?? facts.client)} on ${e(facts.backend)}; resource mode <code>${e(facts.resource)}</code>; faults ${e(facts.nemesis.join(', '))}; seed ${facts.seed}${
      results.durationMs !== null ? `; ${(results.durationMs / 1000).toFixed(1)} s` : ''
    }</p>
${facts.replay ? `<p class="replay">replay: <code>${e(facts.replay)}</code></p>` : ''}
</header>
${countsSection(results)}
${anomaliesSection(results)}
${timelineSection(input.timeline)}
${duplicatesSection(input.timeline)}
<footer>${e(input.generator)} · every value read from history.jsonl next to this file; the verdict recomputed from it</footer>
</main>`,
  });
}

function countsSection(results: QueueResults): string {
  const queue = results.checkers.find((c) => c.checker === 'total-queue');
  const s = queue?.stats ?? {};
  const n = (k: string): number => s[k] ?? 0;
  const ci = wilsonInterval(n('duplicated'), n('done'));
  const rows: [string, string, string][] = [
    ['enqueued ok', String(n('enqueued')), 'jobs the producer was told are in the queue'],
    ['done', String(n('done')), 'jobs with at least one effect landed'],
    [
      'duplicated',
      `${n('duplicated')} (${perThousand(n('done') === 0 ? 0 : n('duplicated') / n('done'))} per 1,000, 95% CI ${perThousand(ci.low)}–${perThousand(ci.high)})`,
      'jobs whose effect landed twice or more',
    ],
    ['lost', String(n('lost')), 'enqueued ok, no effect by the final read'],
    ['wasted', String(n('wasted')), 'effects the resource refused (no harm)'],
    ['completions refused', String(n('missingLock')), "the queue refused a completion: the job's lock had passed on"],
    ['redelivered', String(n('redelivered')), 'jobs handed out twice or more: the danger itself'],
    ['lost increments', String(n('lostIncrements')), 'the counter below the done records'],
  ];
  const evidence = results.evidence.faults;
  return `<section><h2>Counts</h2>
<p>${escapeHtml(queue?.summary ?? 'no total-queue verdict')}</p>
<table><tbody>${rows.map(([k, v, why]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td><td class="why">${escapeHtml(why)}</td></tr>`).join('')}</tbody></table>
<p class="why">Faults: ${evidence.planned} planned, ${evidence.applied} struck${evidence.skipped.length > 0 ? `, ${evidence.skipped.length} found nothing to strike` : ''}${
    evidence.failed.length > 0 ? `, ${evidence.failed.length} failed` : ''
  }.</p></section>`;
}

function anomaliesSection(results: QueueResults): string {
  const all = results.checkers.flatMap((c) => c.anomalies.map((a) => ({ checker: c.checker, kind: a.kind, message: a.message })));
  if (all.length === 0) return `<section><h2>Anomalies</h2><p>None.</p></section>`;
  const shown = all.slice(0, MAX_ANOMALIES);
  return `<section><h2>Anomalies (${all.length})</h2><ul>${shown
    .map((a) => `<li><b>${escapeHtml(a.kind)}</b>: ${escapeHtml(a.message)}</li>`)
    .join('')}</ul>${all.length > shown.length ? `<p>and ${all.length - shown.length} more in results.json</p>` : ''}</section>`;
}

function timelineSection(t: QueueTimeline): string {
  if (t.workers.length === 0) return `<section><h2>Timeline</h2><p>No job was taken.</p></section>`;
  const span = Math.max(1, t.end - t.start);
  const x = (ns: number): number => GUTTER + ((ns - t.start) / span) * (WIDTH - GUTTER - 10);
  const lane = new Map(t.workers.map((w, i) => [w, i]));
  const height = t.workers.length * LANE + 30;
  const duplicated = new Set(t.duplicated.map((d) => d.job));
  const parts: string[] = [];
  for (const f of t.faults) {
    const rows = lane.has(f.victim) ? [lane.get(f.victim)!] : t.workers.map((_, i) => i);
    const x0 = x(f.start);
    const x1 = x(f.end ?? t.end);
    for (const r of rows)
      parts.push(
        `<rect class="fault" x="${x0.toFixed(1)}" y="${r * LANE + 2}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${LANE - 4}"><title>${escapeHtml(`${f.kind}: ${f.victim}`)}</title></rect>`,
      );
  }
  for (const d of t.deliveries) {
    const r = lane.get(d.worker)!;
    const x0 = x(d.take);
    const x1 = Math.max(x0 + 1.5, x(d.end));
    const cls = duplicated.has(d.job) ? 'dup' : d.complete === undefined ? 'open' : d.complete.ok ? 'done' : 'refused';
    parts.push(
      `<rect class="bar ${cls}" x="${x0.toFixed(1)}" y="${r * LANE + 6}" width="${(x1 - x0).toFixed(1)}" height="${LANE - 12}"><title>${escapeHtml(tip(d))}</title></rect>`,
    );
    if (d.effect) parts.push(`<circle class="effect ${d.effect.mark}" cx="${x(d.effect.at).toFixed(1)}" cy="${r * LANE + LANE / 2}" r="3"></circle>`);
  }
  const labels = t.workers.map((w, i) => `<text class="lane" x="4" y="${i * LANE + LANE / 2 + 4}">${escapeHtml(w)}</text>`).join('');
  // Ticks on the history's own clock (seconds since the run began), as the tables below give their times.
  const first = Math.ceil(t.start / 1e9);
  const last = Math.floor(t.end / 1e9);
  const step = Math.max(1, Math.ceil((last - first) / 10));
  const ticks: string[] = [];
  for (let s = first; s <= last; s += step)
    if (x(s * 1e9) < WIDTH - 24) ticks.push(`<text class="tick" x="${x(s * 1e9).toFixed(1)}" y="${t.workers.length * LANE + 16}">${s} s</text>`);
  return `<section><h2>Timeline</h2>
<p class="why">One lane per worker; a bar is one delivery of a job, from its take to the queue's answer to its completion (blue: completed; pink: completion refused; grey: never answered; red: a job whose effect landed twice). A dot is its effect: green accepted, red refused by the resource, orange unknown. Shaded: a fault window (a worker stalled or killed; the server killed shades every lane). Hover for the job, attempt and times.</p>
<svg viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="deliveries per worker over time">${labels}${parts.join('')}${ticks.join('')}</svg></section>`;
}

function tip(d: QueueDelivery): string {
  const ms = (ns: number): string => `${(ns / 1e6).toFixed(1)} ms`;
  return [
    `job ${d.job}, attempt ${d.attempt}, ${d.worker}`,
    `taken at ${ms(d.take)}`,
    d.effect ? `effect ${d.effect.mark} at ${ms(d.effect.at)}` : 'no effect answered',
    d.complete ? `completion ${d.complete.ok ? 'ok' : `refused (${d.complete.error ?? 'fail'})`} at ${ms(d.complete.at)}` : 'completion never answered',
  ].join('\n');
}

function duplicatesSection(t: QueueTimeline): string {
  if (t.duplicated.length === 0) return '';
  const shown = t.duplicated.slice(0, MAX_DUPLICATES);
  const ms = (ns: number): string => `${(ns / 1e6).toFixed(1)}`;
  return `<section><h2>Jobs run twice (${t.duplicated.length})</h2>${shown
    .map(
      (j) =>
        `<h3>job ${escapeHtml(j.job)}</h3><table><thead><tr><th>worker</th><th>attempt</th><th>taken (ms)</th><th>effect</th><th>completion</th></tr></thead><tbody>${j.deliveries
          .map(
            (d) =>
              `<tr><td>${escapeHtml(d.worker)}</td><td>${d.attempt}</td><td>${ms(d.take)}</td><td>${d.effect ? `${escapeHtml(d.effect.mark)} at ${ms(d.effect.at)} ms` : '—'}</td><td>${
                d.complete
                  ? d.complete.ok
                    ? `ok at ${ms(d.complete.at)} ms`
                    : `refused (${escapeHtml(d.complete.error ?? 'fail')}) at ${ms(d.complete.at)} ms`
                  : 'never answered'
              }</td></tr>`,
          )
          .join('')}</tbody></table>`,
    )
    .join('')}${t.duplicated.length > shown.length ? `<p>and ${t.duplicated.length - shown.length} more</p>` : ''}</section>`;
}

const STYLE = `
body { margin: 0; font: 13px/1.45 system-ui, 'Liberation Sans', 'DejaVu Sans', sans-serif; color: #1f2328; }
main { max-width: 1160px; margin: 0 auto; padding: 16px 24px; }
code { font-family: ui-monospace, 'Liberation Mono', 'DejaVu Sans Mono', monospace; }
h1 { font-size: 18px; margin: 0 0 6px; } h2 { font-size: 15px; margin: 20px 0 6px; } h3 { font-size: 13px; margin: 12px 0 4px; }
.outcome { font-weight: 700; font-size: 15px; margin: 4px 0; }
.outcome.unsafe { color: #cf222e; } .outcome.safe { color: #1a7f37; } .outcome.untested, .outcome.unknown { color: #9a6700; }
.replay code { word-break: break-all; }
table { border-collapse: collapse; } th, td { text-align: left; padding: 2px 10px 2px 0; vertical-align: top; }
.why { color: #636c76; }
svg text { font-size: 11px; fill: #636c76; }
.fault { fill: #ffaa26; opacity: 0.25; }
.bar.done { fill: #6db6fe; } .bar.refused { fill: #feb5da; } .bar.open { fill: #d4d4d8; } .bar.dup { fill: #d73027; }
.effect.accepted { fill: #1a9850; } .effect.refused { fill: #d73027; } .effect.unknown, .effect.failed { fill: #ffaa26; } .effect.none { fill: #636c76; }
footer { color: #636c76; margin-top: 24px; font-size: 12px; }
`;
