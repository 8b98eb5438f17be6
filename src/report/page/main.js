// Boot: parse the embedded data, build the parts, draw once, then redraw on zoom, scroll and resize.
// `#report[data-rendered]` turns "true" after the first full draw (tests and scripts wait for it);
// a failure shows on the page as text instead of leaving it blank.

function plotWidth() {
  const main = document.getElementById('report');
  const style = getComputedStyle(main);
  return Math.max(320, main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - GUTTER - 2);
}

function boot() {
  const started = performance.now();
  const data = JSON.parse(document.getElementById('fencecheck-data').textContent);
  const model = buildModel(data);
  const parsed = performance.now();
  renderHeader(model, document.getElementById('run-header'));
  const tip = createTooltip();
  const view = createView(model.span, plotWidth());
  const timeline = createTimeline(model, view, document.getElementById('timeline-section'), tip);
  const charts = createCharts(model, view, document.getElementById('charts'));
  const anomalies = createAnomalies(model, document.getElementById('anomalies'), focusAnomaly);

  /** Focus anomaly `id` (null clears), showing `domain` or the anomaly's window; `still` keeps the page where it is. */
  function focusAnomaly(id, domain, still) {
    const focused = id === null || id === undefined ? null : focusFor(model, model.anomalies[id]);
    const same = focused && timeline.focus && timeline.focus.anomaly.id === focused.anomaly.id && !domain;
    timeline.focus = same ? null : focused;
    anomalies.show(timeline.focus);
    if (timeline.focus) {
      const lanes = [...timeline.focus.pairs].map((p) => model.pairs.lane[p]);
      if (lanes.length) timeline.scrollToLane(Math.min(...lanes));
      const w = domain || timeline.focus.window;
      if (w) zoomToDomain(view, w[0], w[1]);
      if (!still) document.getElementById('timeline').scrollIntoView({ block: 'nearest' });
    }
    requestRender(view);
  }

  const layout = () => {
    timeline.layout(view.width);
    charts.layout(view.width);
  };
  layout();
  onRender(view, timeline.render);
  onRender(view, charts.render);
  renderNow(view);
  // A shrunk run opens on its story: the lines, then the timeline focused on the anomaly that tells it.
  if (data.story) showStory(data.story, document.getElementById('story'), () => focusAnomaly(data.story.anomaly, undefined, true));

  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      resizeView(view, plotWidth());
      layout();
      renderNow(view);
    }, 100);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && timeline.focus) focusAnomaly(null);
  });
  const done = performance.now();
  const footer = document.getElementById('report-footer');
  footer.textContent = `${data.generator} · ${fmtCount(data.historyOps)} ops from history.jsonl · drawn in ${Math.round(done - started)} ms (data ${Math.round(parsed - started)} ms)`;
  // For scripts and tests: the model, the view and the parts, read-only in spirit.
  Object.assign(window, { fencecheckReport: { model, view, timeline, focusAnomaly, timings: { parseMs: parsed - started, renderMs: done - started } } });
  const report = document.getElementById('report');
  report.dataset.renderMs = String(Math.round(done - started));
  report.dataset.rendered = 'true';
}

try {
  boot();
} catch (err) {
  const box = document.createElement('pre');
  box.className = 'warnings';
  box.textContent = `The report could not be drawn: ${err && err.stack ? err.stack : err}`;
  document.body.prepend(box);
  document.getElementById('report').dataset.rendered = 'error';
  throw err;
}
