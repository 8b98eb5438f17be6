// The timeline: one lane per client process (and per server or host a fault hit), time across.
// An svg on top holds the axis and a strip of labelled fault windows; below it a canvas draws the
// lanes. Only the lanes scrolled into view are drawn, so thousands of processes cost no more than ten.

const GUTTER = 118;
const AXIS_H = 24;
const STRIP_H = 18;
const MAX_LANES_H = 540;

function createTimeline(model, view, root, tip) {
  const head = el(root, 'div', 'section-head');
  el(head, 'h2', null, 'Timeline');
  renderLegend(head, model);
  const tools = el(head, 'div', 'tools');
  el(tools, 'span', null, 'scroll to zoom · drag to pan · double-click to reset');
  el(tools, 'button', null, 'Reset zoom')
    .attr('type', 'button')
    .attr('id', 'reset-zoom')
    .on('click', () => resetView(view));
  const notice = el(root, 'div', 'notice').attr('id', 'timeline-notice').attr('hidden', true);
  const box = el(root, 'div', 'timeline').attr('id', 'timeline');
  const stripH = model.faults.length > 0 ? STRIP_H : 0;
  const axisSvg = el(box, 'svg', 'tl-axis').attr('height', AXIS_H + stripH);
  el(axisSvg, 'text', null, 'time').attr('x', 8).attr('y', 16).attr('fill', '#636c76').attr('font-size', 11);
  if (stripH)
    el(axisSvg, 'text', null, 'faults')
      .attr('x', 8)
      .attr('y', AXIS_H + 13)
      .attr('fill', '#636c76')
      .attr('font-size', 11);
  const axisG = el(axisSvg, 'g', 'axis').attr('transform', `translate(${GUTTER},${AXIS_H - 4})`);
  const strip = el(axisSvg, 'g', 'fault-band').attr('transform', `translate(${GUTTER},${AXIS_H})`);
  const totalH = model.lanes.length * LANE_H;
  const scroll = el(box, 'div', 'tl-scroll').style('height', `${Math.min(totalH, MAX_LANES_H) + 1}px`);
  const inner = el(scroll, 'div', 'tl-inner').style('height', `${totalH}px`);
  const labels = el(inner, 'div', 'tl-labels').style('height', `${totalH}px`);
  model.lanes.forEach((lane, i) => {
    el(labels, 'div', `lane-label ${lane.kind}`, lane.label)
      .attr('data-lane', i)
      .attr('data-kind', lane.kind)
      .style('top', `${i * LANE_H}px`)
      .style('height', `${LANE_H}px`)
      .style('line-height', `${LANE_H}px`);
  });
  const canvas = el(inner, 'canvas', 'tl-canvas').node();
  const tl = {
    model,
    view,
    root,
    box,
    canvas,
    ctx: null,
    width: view.width,
    height: Math.min(totalH, MAX_LANES_H),
    scrollTop: 0,
    focus: null,
    mode: 'detail',
    visible: 0,
  };
  const surface = attachZoom(view, canvas, tl.height);
  scroll.on('scroll', () => {
    tl.scrollTop = scroll.node().scrollTop;
    requestRender(view);
  });
  surface.sel.on('mousemove.tip', (event) => hoverTimeline(tl, tip, event)).on('mouseleave.tip', () => hideTooltip(tip));
  surface.zoom.on('start.tip', () => hideTooltip(tip));
  strip.on('mouseleave', () => hideTooltip(tip));

  tl.layout = (width) => {
    tl.width = width;
    tl.ctx = sizeCanvas(canvas, width, tl.height);
    axisSvg.attr('width', GUTTER + width);
  };
  tl.scrollToLane = (lane) => {
    const node = scroll.node();
    const top = lane * LANE_H;
    if (top < node.scrollTop || top + LANE_H > node.scrollTop + tl.height) node.scrollTop = Math.max(0, top - tl.height / 3);
    tl.scrollTop = node.scrollTop;
  };
  tl.render = () => {
    tl.visible = countInView(model, view);
    tl.mode = tl.visible > DETAIL_CAP ? 'decimated' : 'detail';
    const [first, last] = laneWindow(tl);
    drawBackground(tl, first, last);
    drawFaults(tl, first, last);
    drawHolds(tl, first, last);
    if (tl.mode === 'detail') {
      drawBarsDetail(tl, first, last);
      drawAccessMarks(tl, first, last);
    } else drawBarsDecimated(tl, first, last);
    if (tl.focus) {
      drawFocus(tl, first, last);
      if (tl.focus.witness) drawWitness(tl, first, last);
    }
    const ticks = Math.max(2, Math.floor(tl.width / 100));
    axisG.call(d3.axisTop(view.x).ticks(ticks).tickFormat(secondsTickFormat(view.x, ticks)));
    drawFaultStrip(tl, strip, tip);
    updateNotice(tl, notice);
    const [t0, t1] = view.x.domain();
    box.attr('data-t0', Math.round(t0)).attr('data-t1', Math.round(t1)).attr('data-mode', tl.mode).attr('data-visible', tl.visible);
  };
  return tl;
}

function renderLegend(parent, model) {
  const legend = el(parent, 'div', 'legend');
  const item = (cls, text) => {
    const s = el(legend, 'span');
    el(s, 'i', cls);
    el(s, 'span', null, text);
  };
  item('sw ok', 'ok');
  item('sw fail', 'fail');
  item('sw info', 'info (indeterminate)');
  item('sw pending', 'pending');
  item('sw hold', 'lock held (token)');
  item('sw hold maybe', 'maybe held');
  item('tri accepted', 'write accepted');
  item('tri rejected', 'write rejected');
  const kinds = [...new Set(model.faults.map((f) => f.kind))];
  for (const k of kinds) {
    const s = el(legend, 'span');
    el(s, 'i', 'sw')
      .style('background', FAULT_COLORS[k] || FAULT_COLORS.other)
      .style('opacity', 0.6);
    el(s, 'span', null, k);
  }
}

/** The fault windows as labelled bars above the lanes (svg: few, and each has a tooltip). */
function drawFaultStrip(tl, strip, tip) {
  const { view, model } = tl;
  const [t0, t1] = view.x.domain();
  const shown = model.faults.filter((f) => (f.end === null ? model.span[1] : f.end) >= t0 && f.start <= t1);
  const xs = (f) => Math.max(0, view.x(f.start));
  const ws = (f) => Math.max(3, Math.min(tl.width, view.x(f.end === null ? model.span[1] : f.end)) - xs(f));
  const g = strip
    .selectAll('g.fault')
    .data(shown, (f) => f.startLine)
    .join((enter) => {
      const e = enter.append('g').attr('class', 'fault');
      e.append('rect')
        .attr('y', 2)
        .attr('height', STRIP_H - 4)
        .attr('rx', 2);
      e.append('text').attr('y', STRIP_H / 2 + 3.5);
      return e;
    })
    .attr('data-kind', (f) => f.kind);
  g.select('rect')
    .attr('x', xs)
    .attr('width', ws)
    .attr('fill', (f) => FAULT_COLORS[f.kind] || FAULT_COLORS.other)
    .attr('fill-opacity', 0.75)
    .on('mousemove', (event, f) => showFaultTooltip(tip, model, f, event.clientX, event.clientY));
  g.select('text')
    .attr('x', (f) => xs(f) + 4)
    .text((f) => (ws(f) > f.label.length * 6 + 8 ? f.label : ws(f) > 30 ? f.kind : ''));
}

function updateNotice(tl, notice) {
  if (tl.mode === 'decimated') {
    notice
      .attr('hidden', null)
      .text(
        `Decimated view: ${fmtCount(tl.visible)} operations in this window are drawn as one-pixel columns coloured by their worst outcome (info > pending > fail > ok). Zoom in to under ${fmtCount(DETAIL_CAP)} to see each operation, its token and the resource's answer.`,
      );
  } else notice.attr('hidden', true).text('');
}

/** What is under the pointer: an op, a hold, a fault on this lane, or (decimated) a count. */
function hoverTimeline(tl, tip, event) {
  if (event.buttons) return;
  const { model, view } = tl;
  const [mx, my] = d3.pointer(event, tl.canvas);
  const laneIndex = Math.floor((my + tl.scrollTop) / LANE_H);
  const lane = model.lanes[laneIndex];
  if (!lane) return hideTooltip(tip);
  const yIn = my + tl.scrollTop - laneIndex * LANE_H;
  const t = view.x.invert(mx);
  const slack = view.x.invert(mx + 3) - t;
  if (tl.mode === 'decimated' && yIn < HOLD_Y) {
    const [lo, hi] = visibleRange(lane, t - slack, t + slack);
    if (hi > lo) return showTextTooltip(tip, `${lane.label}: ${plural(hi - lo, 'operation')} here`, ['Zoom in to see each one.'], event.clientX, event.clientY);
  } else if (yIn < HOLD_Y) {
    const [lo, hi] = visibleRange(lane, t - slack, t + slack);
    let best = -1;
    for (let k = lo; k < hi; k++) {
      const p = lane.pairs[k];
      if (best === -1 || Math.abs((model.pairs.start[p] + model.pairs.end[p]) / 2 - t) < Math.abs((model.pairs.start[best] + model.pairs.end[best]) / 2 - t))
        best = p;
    }
    if (best !== -1) return showOpTooltip(tip, model, best, event.clientX, event.clientY);
  } else {
    const hold = model.holdsByLane[laneIndex].find((x) => x.start - slack <= t && x.end + slack >= t);
    if (hold) return showHoldTooltip(tip, model, hold, event.clientX, event.clientY);
  }
  const fault = model.faults.find((f) => f.lanes.includes(laneIndex) && f.start <= t && (f.end === null ? model.span[1] : f.end) >= t);
  if (fault) return showFaultTooltip(tip, model, fault, event.clientX, event.clientY);
  hideTooltip(tip);
}
