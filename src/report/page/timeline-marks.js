// Marks drawn over the bars: what the resource said to each write (accepted / rejected, with the
// token), the ops of the focused anomaly, and a linearizability witness drawn as Porcupine does:
// the longest linearizable prefix in its order, and the op that cannot follow it, with the reason.

const MARK_COLORS = { accepted: '#1a9850', rejected: '#d73027', unknown: '#8c959f' };
const WITNESS_OK = '#1a7f37';
const WITNESS_BAD = '#cf222e';

/** The resource's verdict on an access: writes and marks always, other accesses when rejected. */
function accessOutcome(model, p) {
  const { h, pairs } = model;
  const inv = pairs.inv[p];
  const f = h.fDict[h.f[inv]];
  const done = pairs.done[p];
  const said = done === -1 ? undefined : field(h, 'outcome', done);
  if (f !== 'write' && f !== 'mark' && said !== 'rejected') return null;
  if (said === 'accepted' || said === 'rejected') return said;
  if (pairs.outcome[p] === OK) return 'accepted';
  return pairs.outcome[p] === FAIL ? 'rejected' : 'unknown';
}

function drawAccessMarks(tl, first, last) {
  const { ctx, view, model } = tl;
  const [t0, t1] = view.x.domain();
  for (let i = first; i <= last; i++) {
    const lane = model.lanes[i];
    const top = laneTop(tl, i);
    const [lo, hi] = visibleRange(lane, t0, t1);
    for (let k = lo; k < hi; k++) {
      const p = lane.pairs[k];
      const outcome = accessOutcome(model, p);
      if (outcome === null) continue;
      ctx.globalAlpha = tl.focus && !tl.focus.pairs.has(p) ? 0.3 : 1;
      triangle(ctx, view.x(model.pairs.end[p]), top, MARK_COLORS[outcome]);
    }
  }
  ctx.globalAlpha = 1;
}

function triangle(ctx, x, top, color) {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(x - 4.5, top);
  ctx.lineTo(x + 4.5, top);
  ctx.lineTo(x, top + 7);
  ctx.closePath();
  ctx.fill();
}

/** The focused anomaly's ops: full colour, outlined, each with a label saying what it was. */
function drawFocus(tl, first, last) {
  const { ctx, view, model } = tl;
  const { pairs } = model;
  ctx.font = '600 10px system-ui, "DejaVu Sans", sans-serif';
  ctx.textBaseline = 'middle';
  const labels = [];
  for (const p of tl.focus.pairs) {
    const lane = pairs.lane[p];
    if (lane < first || lane > last) continue;
    const y = laneTop(tl, lane) + BAR_Y;
    const xa = view.x(pairs.start[p]);
    const w = Math.max(2, view.x(pairs.end[p]) - xa);
    const bad = tl.focus.witness && tl.focus.witness.op === p;
    ctx.fillStyle = OUTCOME_COLORS[pairs.outcome[p]];
    ctx.fillRect(xa, y, w, BAR_H);
    ctx.lineWidth = bad ? 3 : 2;
    ctx.strokeStyle = bad ? WITNESS_BAD : '#0d1117';
    ctx.strokeRect(xa - 1, y - 1, w + 2, BAR_H + 2);
    const outcome = accessOutcome(model, p);
    const text = `${opLabel(model, p)} ${OUTCOME_NAMES[pairs.outcome[p]]}${outcome ? ` · ${outcome}` : ''}`;
    const color = outcome === 'accepted' ? MARK_COLORS.accepted : outcome === 'rejected' ? MARK_COLORS.rejected : '#0d1117';
    labels.push([xa + w + 5, xa - 5, y + BAR_H / 2, text, color]);
  }
  // Labels after all bars, so that no bar covers a label.
  const placed = [];
  for (const [right, left, midY, text, color] of labels) tag(ctx, tl.width, right, left, midY, text, color, placed);
  tl.focus.tags = placed;
}

/**
 * A small label box with a coloured border: right of `right`, else left of `left`, on the bar's row,
 * the row below or the row above: the first spot that stays on the canvas and covers no label
 * already `placed` (the list is extended).
 */
function tag(ctx, width, right, left, midY, text, color, placed) {
  const w = ctx.measureText(text).width + 8;
  const spots = [];
  for (const dy of [0, 15, -15]) for (const x of [right, left - w]) spots.push([x, midY + dy]);
  const free = ([x, y]) => x >= 0 && x + w <= width && !placed.some((r) => x < r.x + r.w && r.x < x + w && Math.abs(r.y - y) < 14);
  const [x, y] = spots.find(free) || spots[0];
  placed.push({ x, y, w });
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(x, y - 7, w, 14);
  ctx.lineWidth = 1;
  ctx.strokeStyle = color;
  ctx.strokeRect(x + 0.5, y - 6.5, w - 1, 13);
  ctx.fillStyle = color;
  ctx.fillText(text, x + 4, y + 0.5);
}

/** The witness: prefix ops numbered in linearization order and joined, then the op that cannot follow. */
function drawWitness(tl, first, last) {
  const { ctx, view, model } = tl;
  const { pairs } = model;
  const w = tl.focus.witness;
  const center = (p) => [view.x((pairs.start[p] + pairs.end[p]) / 2), laneTop(tl, pairs.lane[p]) + BAR_Y + BAR_H / 2];
  const [t0, t1] = view.x.domain();
  const inView = (p) => p >= 0 && pairs.end[p] >= t0 && pairs.start[p] <= t1 && pairs.lane[p] >= first - 1 && pairs.lane[p] <= last + 1;
  const shown = w.prefix.map((p, i) => [p, i]).filter(([p]) => inView(p));
  ctx.strokeStyle = WITNESS_OK;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  shown.forEach(([p], i) => {
    const [cx, cy] = center(p);
    if (i === 0) ctx.moveTo(cx, cy);
    else ctx.lineTo(cx, cy);
  });
  if (w.op >= 0 && shown.length > 0 && inView(w.op)) ctx.lineTo(...center(w.op));
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.font = 'bold 9px system-ui, "DejaVu Sans", sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const [p, i] of shown) {
    const [cx, cy] = center(p);
    ctx.strokeStyle = WITNESS_OK;
    ctx.lineWidth = 1.5;
    const xa = view.x(pairs.start[p]);
    ctx.strokeRect(xa - 1, cy - BAR_H / 2 - 1, Math.max(2, view.x(pairs.end[p]) - xa) + 2, BAR_H + 2);
    ctx.fillStyle = WITNESS_OK;
    ctx.beginPath();
    ctx.arc(cx, cy, 7, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.fillText(String(i + 1), cx, cy + 0.5);
  }
  ctx.textAlign = 'start';
  if (w.op >= 0 && inView(w.op)) {
    const [cx, cy] = center(w.op);
    ctx.fillStyle = WITNESS_BAD;
    ctx.beginPath();
    ctx.arc(cx, cy, 7, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.fillText('✗', cx, cy + 0.5);
    ctx.textAlign = 'start';
    ctx.font = '600 10px system-ui, "DejaVu Sans", sans-serif';
    tag(
      ctx,
      tl.width,
      cx + 10,
      cx - 10,
      cy + LANE_H / 2 + 1,
      `cannot linearize: ${w.reason} · state after prefix: ${w.state}`,
      WITNESS_BAD,
      tl.focus.tags || [],
    );
  }
}
