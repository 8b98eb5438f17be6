/**
 * The report as one HTML document: the styles, d3, the page's script and the
 * run's data, all inline, so the file works offline from file:// and can be
 * mailed or attached to an issue as it is.
 *
 * Data never becomes markup: the run's data travels as one JSON document in
 * `<script type="application/json">` (escaped by jsonForScript) and the page
 * writes every value with d3's `.text()`. As a second wall, a Content Security
 * Policy allows only the two inline scripts written here, by their hashes: an
 * injected `<script>` or `onerror=` would not run even if escaping failed.
 */
import { createHash } from 'node:crypto';
import { htmlDocument, jsonForScript } from './html-text.js';
import type { PageAssets } from './page-assets.js';
import type { ReportData } from './report-data.js';

export function renderReportHtml(data: ReportData, assets: PageAssets): string {
  const page = `(function () {\n'use strict';\n${assets.script}\n})();\n`;
  const hashes = [assets.d3, page].map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`).join(' ');
  const name = typeof data.test?.name === 'string' ? data.test.name : data.run;
  return htmlDocument({
    title: `fencecheck · ${name}`,
    csp: `default-src 'none'; script-src ${hashes}; style-src 'unsafe-inline'; img-src data:`,
    style: assets.css,
    body: `<main id="report" data-rendered="false">
<header id="run-header"></header>
<section id="story" aria-label="What happened" hidden></section>
<section id="anomalies" aria-label="Anomalies"></section>
<section id="timeline-section" aria-label="Timeline"></section>
<section id="charts" aria-label="Latency and throughput"></section>
<footer id="report-footer"></footer>
</main>
<noscript><p class="noscript">This report draws with JavaScript. Without it, read history.jsonl and results.json next to this file.</p></noscript>
<script type="application/json" id="fencecheck-data">${jsonForScript(data)}</script>
<script>${assets.d3}</script>
<script>${page}</script>`,
  });
}
