// Drawing the timeline's lanes on a canvas: fault shading, lock holds, and operation bars, either
// one bar per op (detail) or, past DETAIL_CAP ops in view, one-pixel columns coloured by the worst
// outcome in them (decimated), so that 100,000 ops draw in milliseconds and the page never hangs.

const LANE_H = 30;
const BAR_Y = 4;
const BAR_H = 13;
const HOLD_Y = 20;
const HOLD_H = 8;
/** More ops than this in view are drawn decimated. */
const DETAIL_CAP = 6000;
const OUTCOME_COLORS = ['#d4d4d8', '#6db6fe', '#feb5da', '#ffaa26'];
/** Worst first when ops share a pixel: info (may have happened) > pending > fail > ok. */
const SEVERITY = [3, 1, 2, 4];
const SEVERITY_COLORS = [null, OUTCOME_COLORS[OK], OUTCOME_COLORS[FAIL], OUTCOME_COLORS[PENDING], OUTCOME_COLORS[INFO]];
const HOLD_COLOR = '#3d4f66';
const FAULT_COLORS = {
  partition: '#d62728',
  pause: '#8250df',
  kill: '#24292f',
  clock: '#bf8700',
  delay: '#1b7c83',
  loss: '#8c564b',
  evict: '#e36209',
  session: '#bf3989',
  other: '#6e7781',
};

const hatchCache = new Map();

/** A diagonal hatch in a fault's colour, for the lanes the fault hit. */
function hatch(ctx, color) {
  if (!hatchCache.has(color)) {
    const c = document.createElement('canvas');
    c.width = c.height = 8;
    const g = c.getContext('2d');
    g.strokeStyle = color;
    g.globalAlpha = 0.55;
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(-2, 10);
    g.lineTo(10, -2);
    g.moveTo(6, 10);
    g.lineTo(10, 6);
    g.moveTo(-2, 2);
    g.lineTo(2, -2);
    g.stroke();
    hatchCache.set(color, c);
  }
  return ctx.createPattern(hatchCache.get(color), 'repeat');
}

/** The lanes [first, last] on screen for a scroll position. */
function laneWindow(tl) {
  const first = Math.max(0, Math.floor(tl.scrollTop / LANE_H));
  const last = Math.min(tl.model.lanes.length - 1, Math.floor((tl.scrollTop + tl.height) / LANE_H));
  return [first, last];
}

function laneTop(tl, lane) {
  return lane * LANE_H - tl.scrollTop;
}

function drawBackground(tl, first, last) {
  const { ctx } = tl;
  ctx.clearRect(0, 0, tl.width, tl.height);
  ctx.fillStyle = '#f6f8fa';
  for (let i = first; i <= last; i++) if (i % 2 === 1) ctx.fillRect(0, laneTop(tl, i), tl.width, LANE_H);
}

/** Every fault shades all lanes lightly, and hatches the lanes it hit. */
function drawFaults(tl, first, last) {
  const { ctx, view, model } = tl;
  const [t0, t1] = view.x.domain();
  for (const f of model.faults) {
    const end = f.end === null ? model.span[1] : f.end;
    if (end < t0 || f.start > t1) continue;
    const xa = Math.max(-1, view.x(f.start));
    const xb = Math.min(tl.width + 1, Math.max(xa + 2, view.x(end)));
    const color = FAULT_COLORS[f.kind] || FAULT_COLORS.other;
    ctx.globalAlpha = 0.09;
    ctx.fillStyle = color;
    ctx.fillRect(xa, 0, xb - xa, tl.height);
    ctx.globalAlpha = 1;
    for (const lane of f.lanes) {
      if (lane < first || lane > last) continue;
      ctx.fillStyle = hatch(ctx, color);
      ctx.fillRect(xa, laneTop(tl, lane), xb - xa, LANE_H);
    }
  }
  ctx.globalAlpha = 1;
}

function drawHolds(tl, first, last) {
  const { ctx, view, model } = tl;
  const [t0, t1] = view.x.domain();
  ctx.font = 'bold 9px system-ui, "DejaVu Sans", sans-serif';
  ctx.textBaseline = 'middle';
  for (let i = first; i <= last; i++) {
    const y = laneTop(tl, i) + HOLD_Y;
    for (const hold of model.holdsByLane[i]) {
      if (hold.end < t0 || hold.start > t1) continue;
      const xa = view.x(hold.start);
      const w = Math.max(1.5, view.x(hold.end) - xa);
      const dim = tl.focus && !tl.focus.holds.has(hold) ? 0.3 : 1;
      ctx.globalAlpha = dim;
      if (hold.definite) {
        ctx.fillStyle = HOLD_COLOR;
        ctx.fillRect(xa, y, w, HOLD_H);
      } else {
        // A maybe hold (the acquire's answer was lost): outlined and hatched, not solid.
        ctx.fillStyle = hatch(ctx, HOLD_COLOR);
        ctx.fillRect(xa, y, w, HOLD_H);
        ctx.strokeStyle = HOLD_COLOR;
        ctx.lineWidth = 1;
        ctx.strokeRect(xa + 0.5, y + 0.5, Math.max(0.5, w - 1), HOLD_H - 1);
      }
      if (hold.endedBy !== 'release' && hold.endedBy !== 'next-acquire') {
        // Never let go: fade the last pixels so the end reads as "unknown", not as a release.
        ctx.fillStyle = '#ffffff';
        ctx.globalAlpha = 0.5 * dim;
        ctx.fillRect(xa + w - Math.min(w, 12), y, Math.min(w, 12), HOLD_H);
        ctx.globalAlpha = dim;
      }
      // A client without tokens (a lock that gives none) holds with no token: the bar says only that it held.
      const label = hold.token === null || hold.token === undefined ? 'held' : `token ${fmtShort(hold.token, 16)}`;
      if (w > ctx.measureText(label).width + 8) {
        ctx.fillStyle = hold.definite ? '#ffffff' : HOLD_COLOR;
        ctx.fillText(label, Math.max(xa, 0) + 3, y + HOLD_H / 2 + 0.5);
      }
    }
  }
  ctx.globalAlpha = 1;
}

/** One bar per op in view, labelled when wide enough. */
function drawBarsDetail(tl, first, last) {
  const { ctx, view, model } = tl;
  const { pairs } = model;
  const [t0, t1] = view.x.domain();
  ctx.font = '10px system-ui, "DejaVu Sans", sans-serif';
  ctx.textBaseline = 'middle';
  for (let i = first; i <= last; i++) {
    const lane = model.lanes[i];
    const y = laneTop(tl, i) + BAR_Y;
    const [lo, hi] = visibleRange(lane, t0, t1);
    for (let k = lo; k < hi; k++) {
      const p = lane.pairs[k];
      const xa = view.x(pairs.start[p]);
      const w = Math.max(1, view.x(pairs.end[p]) - xa);
      ctx.globalAlpha = tl.focus && !tl.focus.pairs.has(p) ? 0.28 : 1;
      ctx.fillStyle = OUTCOME_COLORS[pairs.outcome[p]];
      ctx.fillRect(xa, y, w, BAR_H);
      // An op that sat in a paused client's pipe took effect only once the client began it (`started`): its label
      // goes there, not inside the pause, so a stale write reads where it landed.
      const began = startedAt(model, p);
      const xl = began === undefined ? xa : Math.min(Math.max(xa, view.x(began)), xa + w);
      if (xa + w - xl >= 34) barLabel(ctx, model, p, xl, y, xa + w - xl);
    }
  }
  ctx.globalAlpha = 1;
}

function barLabel(ctx, model, p, xa, y, w) {
  const text = opLabel(model, p);
  const left = Math.max(xa, 0) + 3;
  const room = xa + w - left - 3;
  if (room < 12) return;
  ctx.fillStyle = '#0b2540';
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, y, room, BAR_H);
  ctx.clip();
  ctx.fillText(text, left, y + BAR_H / 2 + 0.5);
  ctx.restore();
}

/** When the client actually began the op (its completion's `started`, ns), when later than its invocation. */
function startedAt(model, p) {
  const { h, pairs } = model;
  const done = pairs.done[p];
  const started = done === -1 ? undefined : field(h, 'started', done);
  return typeof started === 'number' && started > pairs.start[p] ? started : undefined;
}

/** "write 33 t65": the op's f, its value (the result for reads) and its token. */
function opLabel(model, p) {
  const { h, pairs } = model;
  const inv = pairs.inv[p];
  const done = pairs.done[p];
  const f = h.fDict[h.f[inv]];
  const value = done !== -1 && field(h, 'value', done) !== undefined ? field(h, 'value', done) : field(h, 'value', inv);
  const token = field(h, 'token', done !== -1 && field(h, 'token', done) !== undefined ? done : inv);
  return `${f}${value === undefined || value === null ? '' : ` ${fmtShort(value, 16)}`}${token === undefined ? '' : ` t${fmtShort(token, 12)}`}`;
}

/** Decimated: per lane and pixel column, the worst outcome of the ops covering it. */
function drawBarsDecimated(tl, first, last) {
  const { ctx, view, model } = tl;
  const { pairs } = model;
  const [t0, t1] = view.x.domain();
  const width = Math.ceil(tl.width);
  const column = new Uint8Array(width + 1);
  for (let i = first; i <= last; i++) {
    column.fill(0);
    const lane = model.lanes[i];
    const [lo, hi] = visibleRange(lane, t0, t1);
    for (let k = lo; k < hi; k++) {
      const p = lane.pairs[k];
      const a = Math.max(0, Math.floor(view.x(pairs.start[p])));
      const b = Math.min(width, Math.max(a, Math.floor(view.x(pairs.end[p]))));
      const s = SEVERITY[pairs.outcome[p]];
      for (let c = a; c <= b; c++) if (column[c] < s) column[c] = s;
    }
    const y = laneTop(tl, i) + BAR_Y;
    ctx.globalAlpha = tl.focus ? 0.28 : 1;
    for (let c = 0; c <= width;) {
      const s = column[c];
      let d = c + 1;
      while (d <= width && column[d] === s) d++;
      if (s > 0) {
        ctx.fillStyle = SEVERITY_COLORS[s];
        ctx.fillRect(c, y, d - c, BAR_H);
      }
      c = d;
    }
  }
  ctx.globalAlpha = 1;
}

/** How many ops overlap the view, over all lanes: decides detail or decimated. */
function countInView(model, view) {
  const [t0, t1] = view.x.domain();
  let n = 0;
  for (const lane of model.lanes) {
    const [lo, hi] = visibleRange(lane, t0, t1);
    n += Math.max(0, hi - lo);
  }
  return n;
}
