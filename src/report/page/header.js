// The header: what ran (test.json), what the checkers said (results.json), how to run it again.

const VERDICT_TEXT = { true: 'VALID', false: 'INVALID', unknown: 'UNKNOWN', none: 'NOT CHECKED' };
const VERDICT_MARK = { true: '✓', false: '✗', unknown: '?' };
const KNOWN_OPTIONS = ['backend', 'resource', 'workload', 'nemesis', 'nemeses', 'seed', 'clients', 'timeLimitS', 'ttlMs', 'holdMs', 'rate', 'startedAt'];
const OPTION_LABELS = { timeLimitS: 'time limit (s)', ttlMs: 'TTL (ms)', holdMs: 'hold (ms)', startedAt: 'started' };

function validityKey(v) {
  return v === true ? 'true' : v === false ? 'false' : v === 'unknown' ? 'unknown' : 'none';
}

function renderHeader(model, root) {
  const data = model.data;
  const test = data.test || {};
  const results = data.results;
  const verdict = validityKey(results ? results.valid : undefined);
  const top = el(root, 'div', 'title-row');
  el(top, 'span', `verdict v-${verdict}`, VERDICT_TEXT[verdict]).attr('id', 'run-verdict');
  el(top, 'h1', null, typeof test.name === 'string' ? test.name : data.run);
  el(top, 'span', 'run-id', data.run);
  // Computed where the run was checked (src/check/format-outcome.ts): a valid run without evidence says UNTESTED.
  // A run stopped by a signal (test.json `interrupted`): its history ends early, whatever the checkers say of it.
  const stopped = test.interrupted;
  if (stopped && typeof stopped === 'object')
    el(root, 'div', 'interrupted', `INTERRUPTED by ${stopped.signal} at ${stopped.at}: the history ends there; the run did not finish`).attr(
      'id',
      'run-interrupted',
    );
  if (data.outcome) el(root, 'div', `outcome${/^outcome: UNTESTED/.test(data.outcome) ? ' untested' : ''}`, data.outcome).attr('id', 'run-outcome');

  const facts = el(root, 'dl', 'facts');
  const fact = (label, value) => {
    if (value === undefined || value === null || value === '') return;
    const d = el(facts, 'div');
    el(d, 'dt', null, label);
    el(d, 'dd', null, value);
  };
  for (const key of KNOWN_OPTIONS) {
    const v = test[key];
    fact(OPTION_LABELS[key] || key, Array.isArray(v) ? (v.length ? v.join(', ') : 'none') : typeof v === 'object' && v !== null ? fmtValue(v, 80) : v);
  }
  fact('duration', results && typeof results.durationMs === 'number' ? fmtDuration(results.durationMs * 1e6) : fmtDuration(model.span[1] - model.span[0]));
  fact('history', `${plural(data.historyOps, 'op')} · ${plural(model.lanes.filter((l) => l.kind === 'client').length, 'client process', 'client processes')}`);

  if (test.versions && typeof test.versions === 'object') {
    const parts = Object.entries(test.versions).map(([k, v]) => `${k} ${fmtShort(v, 40)}`);
    el(root, 'div', 'versions', `versions: ${parts.join(' · ')}`);
  }
  renderOtherOptions(root, test);
  renderCheckers(root, results);
  if (typeof test.replay === 'string') renderReplay(root, test.replay);
  if (data.warnings.length > 0) {
    const ul = el(root, 'ul', 'warnings');
    for (const w of data.warnings) el(ul, 'li', null, w);
  }
}

/** Every other option of the run, folded away. */
function renderOtherOptions(root, test) {
  const rest = Object.entries(test).filter(([k]) => !KNOWN_OPTIONS.includes(k) && !['name', 'versions', 'replay'].includes(k));
  if (rest.length === 0) return;
  const details = el(root, 'details', 'options');
  el(details, 'summary', null, `all options (${rest.length} more)`);
  const table = el(details, 'table');
  for (const [k, v] of rest) {
    const tr = el(table, 'tr');
    el(tr, 'td', null, k);
    el(tr, 'td', 'mono', fmtValue(v, 400));
  }
}

function renderCheckers(root, results) {
  const box = el(root, 'div', 'checkers').attr('id', 'checkers');
  if (!results) {
    el(box, 'span', 'none', 'No results.json yet: the checkers have not run (run `fencecheck check RUN_DIR`).');
    return;
  }
  for (const c of results.checkers) {
    const key = validityKey(c.valid);
    const chip = el(box, 'div', `checker v-${key}`).attr('data-checker', c.checker);
    el(chip, 'span', 'mark', VERDICT_MARK[key] || '?');
    el(chip, 'span', 'name', c.checker);
    const summary = c.summary || (c.error ? `error: ${c.error}` : '');
    if (summary) el(chip, 'div', 'summary', summary);
  }
}

function renderReplay(root, command) {
  const row = el(root, 'div', 'replay');
  el(row, 'span', 'label', 'Replay');
  const code = el(row, 'code', null, command);
  const button = el(row, 'button', null, 'Copy').attr('type', 'button');
  button.on('click', () => {
    const done = () => button.text('Copied');
    // file:// pages may not be allowed the clipboard: then select the text for Ctrl+C.
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(command).then(done, () => selectText(code.node()));
    else selectText(code.node());
  });
}

function selectText(node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}
