// The tooltip: every field of an operation (its invocation and its completion side by side),
// of a fault window (the nemesis ops that started and stopped it), or of a lock hold.

const OUTCOME_NAMES = ['pending', 'ok', 'fail', 'info'];
const HOLD_END_TEXT = {
  release: 'to the release being invoked',
  'next-acquire': 'to the next acquire being invoked (never released)',
  retired: 'to its last op, which ended in info: the process retired (never released)',
  'end-of-history': 'to the end of the history (never released)',
};

function createTooltip() {
  return el(document.body, 'div', 'tooltip').attr('id', 'tooltip').attr('hidden', true);
}

function placeTooltip(tip, clientX, clientY) {
  const node = tip.node();
  tip.attr('hidden', null);
  const w = node.offsetWidth;
  const h = node.offsetHeight;
  const x = clientX + 14 + w > window.innerWidth ? Math.max(4, clientX - 14 - w) : clientX + 14;
  const y = clientY + 14 + h > window.innerHeight ? Math.max(4, clientY - 14 - h) : clientY + 14;
  tip.style('left', `${x}px`).style('top', `${y}px`);
}

function hideTooltip(tip) {
  tip.attr('hidden', true);
}

/** An op bar: header, interval, and a table of each field for the invocation and the completion. */
function showOpTooltip(tip, model, p, clientX, clientY) {
  const { h, pairs } = model;
  tip.selectAll('*').remove();
  const inv = opAt(h, pairs.inv[p]);
  const done = pairs.done[p] === -1 ? null : opAt(h, pairs.done[p]);
  const outcome = OUTCOME_NAMES[pairs.outcome[p]];
  const head = el(tip, 'div', 'tt-head');
  el(head, 'span', `sw ${outcome}`);
  el(head, 'span', null, `process ${inv.process} · ${inv.f} ${fmtShort(inv.value, 40)} · ${outcome}`);
  const latency = done ? fmtDuration(done.time - inv.time) : 'never completed';
  el(tip, 'div', 'tt-sub', `${fmtSeconds(inv.time)} → ${done ? fmtSeconds(done.time) : '…'} (${latency})`);
  fieldTable(tip, done ? ['invoke', done.type] : ['invoke'], done ? [inv, done] : [inv]);
  placeTooltip(tip, clientX, clientY);
}

function showFaultTooltip(tip, model, fault, clientX, clientY) {
  tip.selectAll('*').remove();
  el(el(tip, 'div', 'tt-head'), 'span', null, `${fault.label} (${fault.kind})`);
  const end = fault.end === null ? 'not stopped by the end of the history' : fmtSeconds(fault.end);
  el(tip, 'div', 'tt-sub', `${fmtSeconds(fault.start)} → ${end}${fault.end === null ? '' : ` (${fmtDuration(fault.end - fault.start)})`}`);
  const ops = [opAt(model.h, fault.startLine)];
  const heads = ['started by'];
  if (fault.endLine >= 0) {
    ops.push(opAt(model.h, fault.endLine));
    heads.push('stopped by');
  }
  fieldTable(tip, heads, ops);
  placeTooltip(tip, clientX, clientY);
}

function showHoldTooltip(tip, model, hold, clientX, clientY) {
  tip.selectAll('*').remove();
  const lane = model.lanes[hold.lane];
  el(
    el(tip, 'div', 'tt-head'),
    'span',
    null,
    `lock ${hold.definite ? 'held' : 'maybe held'} by ${lane.label}${hold.token === null || hold.token === undefined ? ', no token' : `, token ${fmtShort(hold.token, 40)}`}`,
  );
  el(tip, 'div', 'tt-sub', `${fmtSeconds(hold.start)} → ${fmtSeconds(hold.end)} (${fmtDuration(hold.end - hold.start)})`);
  el(tip, 'div', null, hold.definite ? 'from the acquire returning ok' : 'from an acquire whose answer was lost (info or none): it may have been granted');
  el(tip, 'div', null, HOLD_END_TEXT[hold.endedBy] || hold.endedBy);
  placeTooltip(tip, clientX, clientY);
}

function showTextTooltip(tip, title, lines, clientX, clientY) {
  tip.selectAll('*').remove();
  el(el(tip, 'div', 'tt-head'), 'span', null, title);
  for (const line of lines) el(tip, 'div', null, line);
  placeTooltip(tip, clientX, clientY);
}

/** Rows: every key any of the ops has, schema fields first; one column per op. */
function fieldTable(tip, heads, ops) {
  const table = el(tip, 'table');
  const hr = el(table, 'tr');
  el(hr, 'th');
  for (const head of heads) el(hr, 'th', null, head);
  const keys = [];
  for (const op of ops) for (const k of Object.keys(op)) if (!keys.includes(k)) keys.push(k);
  for (const k of keys) {
    const tr = el(table, 'tr');
    el(tr, 'th', null, k);
    for (const op of ops) el(tr, 'td', 'mono', cellText(op, k));
  }
}

function cellText(op, k) {
  if (!(k in op)) return '';
  if (k === 'time') return `${fmtSeconds(op.time)} (${op.time} ns)`;
  if (k === 'type' || k === 'f' || k === 'process') return String(op[k]);
  return fmtValue(op[k], 200);
}
