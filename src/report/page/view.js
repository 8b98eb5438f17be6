// One horizontal view shared by the timeline and the charts: zooming or panning any of them moves
// them all, so a fault window or an anomaly lines up across every picture. Drawing happens once per
// animation frame, however many zoom events arrive in it.

/** The narrowest window a reader can zoom to: 10 µs. */
const MIN_VIEW_NS = 1e4;

function createView(span, width) {
  const base = d3.scaleLinear().domain(span).range([0, width]);
  return { span, width, base, x: base.copy(), transform: d3.zoomIdentity, surfaces: [], renderers: [], frame: 0, syncing: false, focus: null };
}

/** Make `element` (a canvas or svg `height` px tall, as wide as the view) zoom and pan the view. */
function attachZoom(view, element, height) {
  const surface = { sel: d3.select(element), zoom: d3.zoom(), height };
  surface.zoom
    .scaleExtent([1, Math.max(1, (view.span[1] - view.span[0]) / MIN_VIEW_NS)])
    .extent([
      [0, 0],
      [view.width, height],
    ])
    .translateExtent([
      [0, -1e7],
      [view.width, 1e7],
    ])
    .on('zoom', (event) => {
      if (!view.syncing) setTransform(view, event.transform, surface);
    });
  surface.sel
    .call(surface.zoom)
    .on('dblclick.zoom', null)
    .on('dblclick', () => resetView(view));
  view.surfaces.push(surface);
  return surface;
}

function setTransform(view, transform, source) {
  view.transform = transform;
  view.x = transform.rescaleX(view.base);
  view.syncing = true;
  for (const s of view.surfaces) if (s !== source) s.sel.call(s.zoom.transform, transform);
  view.syncing = false;
  requestRender(view);
}

/** Show [t0, t1] (clamped to the history's span). */
function zoomToDomain(view, t0, t1) {
  const [s0, s1] = view.span;
  let a = Math.max(s0, Math.min(t0, t1));
  let b = Math.min(s1, Math.max(t0, t1));
  if (b - a < MIN_VIEW_NS) {
    const mid = (a + b) / 2;
    a = Math.max(s0, mid - MIN_VIEW_NS / 2);
    b = Math.min(s1, a + MIN_VIEW_NS);
  }
  const k = (s1 - s0) / (b - a);
  setTransform(view, d3.zoomIdentity.scale(k).translate(-view.base(a), 0), null);
}

function resetView(view) {
  setTransform(view, d3.zoomIdentity, null);
}

/** A new width (the window was resized): keep showing the same times. */
function resizeView(view, width) {
  const [a, b] = view.x.domain();
  view.width = width;
  view.base.range([0, width]);
  for (const s of view.surfaces)
    s.zoom
      .extent([
        [0, 0],
        [width, s.height],
      ])
      .translateExtent([
        [0, -1e7],
        [width, 1e7],
      ]);
  zoomToDomain(view, a, b);
}

function onRender(view, render) {
  view.renderers.push(render);
}

function requestRender(view) {
  if (view.frame) return;
  view.frame = requestAnimationFrame(() => {
    view.frame = 0;
    for (const render of view.renderers) render();
  });
}

/** Render now (first paint, tests): cancels a pending frame. */
function renderNow(view) {
  if (view.frame) cancelAnimationFrame(view.frame);
  view.frame = 0;
  for (const render of view.renderers) render();
}

/** A canvas sized for the device's pixel ratio; returns its 2D context scaled to CSS pixels. */
function sizeCanvas(canvas, width, height) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(width * ratio));
  canvas.height = Math.max(1, Math.round(height * ratio));
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return ctx;
}
