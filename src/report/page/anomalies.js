// The anomalies, listed at the top. Clicking one zooms the timeline to its window, highlights the
// operations it names (holders, tokens, the stale write) and, for a linearizability failure, draws
// the witness; the panel under the list spells the same out in words.

function createAnomalies(model, root, focusAnomaly) {
  const head = el(root, 'div', 'section-head');
  el(head, 'h2', null, 'Anomalies');
  el(head, 'span', 'count', model.anomalies.length).attr('id', 'anomaly-count');
  if (!model.data.results) {
    el(root, 'p', 'none', 'Not checked yet: there is no results.json in this run directory.');
    return { show() {} };
  }
  if (model.anomalies.length === 0) {
    el(root, 'p', 'none', 'None: no checker reported an anomaly.');
    return { show() {} };
  }
  el(head, 'span', 'none', 'click one to zoom the timeline to it');
  // Checkers cap their lists (a run with thousands of overlaps needs a count and a sample).
  const counted = model.data.results.checkers.reduce((n, c) => n + Math.max(c.anomalyCount || 0, (c.anomalies || []).length), 0);
  if (counted > model.anomalies.length)
    el(head, 'span', 'none', `· ${fmtCount(counted)} found, the first ${fmtCount(model.anomalies.length)} listed by the checkers (see results.json)`);
  const list = el(root, 'ol', 'anomaly-list');
  const items = model.anomalies.map((a) => {
    const li = el(list, 'li', 'anomaly').attr('data-anomaly', a.id).attr('data-kind', a.anomaly.kind);
    clickable(li, () => focusAnomaly(a.id));
    el(li, 'span', 'kind', a.anomaly.kind);
    el(li, 'span', 'checker-name', a.checkerName);
    if (a.anomaly.message) el(li, 'p', 'message', a.anomaly.message);
    el(li, 'div', 'meta', anomalyMeta(a.anomaly));
    return li;
  });
  const detail = el(root, 'div', 'detail').attr('id', 'anomaly-detail').attr('hidden', true);
  return {
    show(focused) {
      items.forEach((li, i) => li.classed('focused', focused !== null && focused.anomaly.id === i));
      renderDetail(model, detail, focused, focusAnomaly);
    },
  };
}

function anomalyMeta(a) {
  const parts = [];
  if (Array.isArray(a.processes) && a.processes.length) parts.push(`processes ${a.processes.join(', ')}`);
  if (Array.isArray(a.tokens) && a.tokens.length) parts.push(`tokens ${a.tokens.map((t) => fmtShort(t, 16)).join(', ')}`);
  if (a.window && typeof a.window.start === 'number') parts.push(`${fmtSeconds(a.window.start)} – ${fmtSeconds(a.window.end)}`);
  if (Array.isArray(a.opIndexes)) parts.push(plural(a.opIndexes.length, 'op'));
  return parts.join(' · ');
}

/** What focusing an anomaly highlights: its ops, the holds they began, and its witness. */
function focusFor(model, a) {
  const pairs = new Set(a.pairs.filter((p) => p >= 0));
  let witness = null;
  if (a.witness && a.anomaly.witness) {
    witness = { prefix: a.witness.prefix, op: a.witness.op, state: a.anomaly.witness.state, reason: a.anomaly.witness.reason };
    if (witness.op >= 0) pairs.add(witness.op);
  }
  // The holds under which the anomaly's ops ran: on their lanes, overlapping them.
  const holds = new Set();
  for (const p of pairs) {
    for (const hold of model.holdsByLane[model.pairs.lane[p]]) {
      if (hold.start <= model.pairs.end[p] && hold.end >= model.pairs.start[p]) holds.add(hold);
    }
  }
  return { anomaly: a, pairs, holds, witness, window: focusWindow(model, a, pairs) };
}

/** The anomaly's window, else the span of its ops; padded so the ops do not touch the edges. */
function focusWindow(model, a, pairs) {
  let t0 = Infinity;
  let t1 = -Infinity;
  const w = a.anomaly.window;
  if (w && typeof w.start === 'number' && typeof w.end === 'number') [t0, t1] = [w.start, w.end];
  else
    for (const p of pairs) {
      t0 = Math.min(t0, model.pairs.start[p]);
      t1 = Math.max(t1, model.pairs.end[p]);
    }
  if (!(t1 >= t0)) return null;
  const pad = Math.max((t1 - t0) * 0.12, 2e6);
  return [t0 - pad, t1 + pad];
}

function renderDetail(model, detail, focused, focusAnomaly) {
  detail.selectAll('*').remove();
  if (focused === null) return detail.attr('hidden', true);
  detail.attr('hidden', null);
  const a = focused.anomaly;
  const head = el(detail, 'div', 'detail-head');
  el(head, 'strong', null, a.anomaly.kind);
  el(head, 'span', 'grow', a.checkerName);
  el(head, 'button', null, 'Clear')
    .attr('type', 'button')
    .on('click', () => focusAnomaly(null));
  if (focused.witness) renderWitness(model, detail, focused.witness);
  el(detail, 'div', null, 'Operations involved (click to centre):');
  const ul = el(detail, 'ul').attr('id', 'involved-ops');
  for (const p of focused.pairs) {
    const li = el(ul, 'li', 'involved-op', describePair(model, p)).attr('data-pair', p);
    clickable(li, () => {
      const [t0, t1] = focused.window || model.span;
      const mid = (model.pairs.start[p] + model.pairs.end[p]) / 2;
      focusAnomaly(a.id, [mid - (t1 - t0) / 2, mid + (t1 - t0) / 2]);
    });
  }
  for (const line of a.lines) el(ul, 'li', null, `nemesis ${model.h.fDict[model.h.f[line]]} at ${fmtSeconds(model.h.time[line])}`);
  if (a.missing.length) el(detail, 'div', 'none', `Not in the history: op index ${a.missing.join(', ')}`);
}

function renderWitness(model, detail, w) {
  const box = el(detail, 'div', 'witness');
  const last = w.prefix.length ? w.prefix[w.prefix.length - 1] : -1;
  el(
    box,
    'div',
    null,
    `Longest linearizable prefix: ${plural(w.prefix.length, 'operation')}, numbered in linearization order on the timeline${last >= 0 ? `; the last is ${describePair(model, last)}` : ''}.`,
  );
  el(box, 'div', null, `Model state after it: ${w.state}`);
  const bad = el(box, 'div');
  el(bad, 'span', 'bad', 'Cannot linearize: ');
  el(bad, 'span', null, `${w.op >= 0 ? describePair(model, w.op) : 'an op not in this history'} — ${w.reason}`);
}

function describePair(model, p) {
  const { h, pairs } = model;
  const inv = pairs.inv[p];
  const end = pairs.done[p] === -1 ? '…' : fmtSeconds(pairs.end[p]);
  return `process ${h.process[inv]} · ${opLabel(model, p)} · ${OUTCOME_NAMES[pairs.outcome[p]]} · index ${h.index[inv]} · ${fmtSeconds(pairs.start[p])} → ${end}`;
}
