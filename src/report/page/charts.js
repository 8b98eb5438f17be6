// Latency over time (one point per completed op, log scale) and throughput (completions per second,
// stacked by outcome), with the fault windows shaded. Both share the timeline's view: zoom one, all move.

const LATENCY_H = 170;
const THROUGHPUT_H = 120;
const X_AXIS_H = 20;

function createCharts(model, view, root) {
  const head = el(root, 'div', 'section-head');
  el(head, 'h2', null, 'Latency and throughput');
  const grid = el(root, 'div', 'charts');
  const latency = chartBox(grid, 'latency-chart', 'Latency', 'each completed operation: invocation time → time to complete (log scale)', LATENCY_H, view);
  const throughput = chartBox(grid, 'throughput-chart', 'Throughput', 'completions per second, stacked by outcome', THROUGHPUT_H, view);
  const latencyY = latencyScale(model);
  return {
    layout(width) {
      for (const c of [latency, throughput]) {
        c.width = width;
        c.ctx = sizeCanvas(c.canvas, width, c.height);
        c.svg.attr('width', GUTTER + width).attr('height', c.height + X_AXIS_H);
      }
    },
    render() {
      drawLatency(latency, model, view, latencyY);
      drawThroughput(throughput, model, view);
    },
  };
}

function chartBox(parent, id, title, sub, height, view) {
  const box = el(parent, 'div', 'chart').attr('id', id);
  const h3 = el(box, 'h3', null, title);
  el(h3, 'span', 'sub', sub);
  const body = el(box, 'div', 'chart-body').style('height', `${height + X_AXIS_H}px`);
  const canvas = el(body, 'canvas').node();
  const svg = el(body, 'svg');
  const chart = {
    box,
    canvas,
    svg,
    height,
    width: view.width,
    ctx: null,
    yAxis: el(svg, 'g', 'axis').attr('transform', `translate(${GUTTER - 1},0)`),
    xAxis: el(svg, 'g', 'axis').attr('transform', `translate(${GUTTER},${height})`),
  };
  attachZoom(view, canvas, height);
  return chart;
}

function latencyScale(model) {
  const { pairs } = model;
  let lo = Infinity;
  let hi = 0;
  for (let p = 0; p < pairs.n; p++) {
    if (pairs.done[p] === -1) continue;
    const l = Math.max(1, pairs.end[p] - pairs.start[p]);
    if (l < lo) lo = l;
    if (l > hi) hi = l;
  }
  if (!(hi > 0)) [lo, hi] = [1e6, 1e9];
  return d3
    .scaleLog()
    .domain([lo, Math.max(hi, lo * 10)])
    .nice();
}

function shadeFaults(chart, model, view) {
  const { ctx } = chart;
  const [t0, t1] = view.x.domain();
  for (const f of model.faults) {
    const end = f.end === null ? model.span[1] : f.end;
    if (end < t0 || f.start > t1) continue;
    const xa = Math.max(-1, view.x(f.start));
    ctx.globalAlpha = 0.12;
    ctx.fillStyle = FAULT_COLORS[f.kind] || FAULT_COLORS.other;
    ctx.fillRect(xa, 0, Math.max(2, Math.min(chart.width + 1, view.x(end)) - xa), chart.height);
  }
  ctx.globalAlpha = 1;
}

function drawXAxis(chart, view) {
  const ticks = Math.max(2, Math.floor(chart.width / 100));
  chart.xAxis.call(d3.axisBottom(view.x).ticks(ticks).tickFormat(secondsTickFormat(view.x, ticks)));
}

function drawLatency(chart, model, view, y) {
  const { ctx } = chart;
  const { pairs } = model;
  y.range([chart.height - 3, 3]);
  ctx.clearRect(0, 0, chart.width, chart.height);
  shadeFaults(chart, model, view);
  const [t0, t1] = view.x.domain();
  // ok first, then fail and info on top: the rare outcomes must stay visible.
  for (const outcome of [OK, FAIL, INFO]) {
    ctx.fillStyle = OUTCOME_COLORS[outcome];
    ctx.globalAlpha = outcome === OK ? 0.75 : 1;
    for (let p = 0; p < pairs.n; p++) {
      if (pairs.outcome[p] !== outcome || pairs.done[p] === -1) continue;
      const t = pairs.start[p];
      if (t < t0 || t > t1) continue;
      ctx.fillRect(view.x(t) - 1.5, y(Math.max(1, pairs.end[p] - t)) - 1.5, 3, 3);
    }
  }
  ctx.globalAlpha = 1;
  chart.yAxis.call(
    d3
      .axisLeft(y)
      .ticks(4)
      .tickFormat((ns) => (Math.abs(Math.log10(Number(ns)) % 1) < 1e-9 ? fmtDecade(Number(ns)) : '')),
  );
  drawXAxis(chart, view);
}

function drawThroughput(chart, model, view) {
  const { ctx } = chart;
  const [t0, t1] = view.x.domain();
  // At most 50 buckets in view, each at least 8 px: a client's cycle of ops comes in bursts, and
  // narrower buckets show the bursts, not the rate. Aligned to multiples of their width so that
  // panning does not make the bars shimmer.
  const width = Math.max((t1 - t0) / Math.max(10, chart.width / 8), (t1 - t0) / 50);
  const from = Math.floor(t0 / width) * width;
  const buckets = Math.ceil((t1 - from) / width) + 1;
  const series = [OK, FAIL, INFO].map((outcome) => {
    const times = model.completions[outcome];
    const rates = new Float64Array(buckets);
    for (let b = 0; b < buckets; b++) {
      const a = from + b * width;
      rates[b] = (lowerBound(times, a + width) - lowerBound(times, a)) / (width / 1e9);
    }
    return { outcome, rates };
  });
  const stacked = Array.from({ length: buckets }, (_, b) => {
    let acc = 0;
    return series.map((s) => [acc, (acc += s.rates[b])]);
  });
  const max = d3.max(stacked, (levels) => levels[levels.length - 1][1]) || 1;
  const y = d3
    .scaleLinear()
    .domain([0, max])
    .nice()
    .range([chart.height - 1, 4]);
  const x = (b) => view.x(from + b * width);
  ctx.clearRect(0, 0, chart.width, chart.height);
  shadeFaults(chart, model, view);
  const bucketIndexes = d3.range(buckets);
  series.forEach((s, i) => {
    /** @type {d3.Area<number>} */
    const area = d3.area();
    area
      .x((b) => x(b))
      .y0((b) => y(stacked[b][i][0]))
      .y1((b) => y(stacked[b][i][1]))
      .curve(d3.curveStepAfter)
      .context(ctx);
    ctx.beginPath();
    area(bucketIndexes);
    ctx.fillStyle = OUTCOME_COLORS[s.outcome];
    ctx.globalAlpha = 0.9;
    ctx.fill();
  });
  ctx.globalAlpha = 1;
  chart.yAxis.call(
    d3
      .axisLeft(y)
      .ticks(4)
      .tickFormat((r) => `${d3.format('~s')(Number(r))}/s`),
  );
  drawXAxis(chart, view);
}

/** A power of ten of nanoseconds as an axis label: 100 µs, 1 ms, 10 s. */
function fmtDecade(ns) {
  /** @type {[number, string][]} */
  const units = [
    [1e9, 's'],
    [1e6, 'ms'],
    [1e3, 'µs'],
    [1, 'ns'],
  ];
  const [scale, unit] = units.find(([u]) => ns >= u) || units[3];
  return `${Math.round(ns / scale)} ${unit}`;
}
