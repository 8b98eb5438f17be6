// Decoding the report data (src/report/report-data.ts, encode-history.ts) into typed arrays the
// drawing code can scan quickly: one array per history column, and per lane the bars in time order.

const OP_TYPES = ['invoke', 'ok', 'fail', 'info'];
/** Bar outcome codes: the completion's type; 0 is a pending op (no completion). */
const PENDING = 0;
const OK = 1;
const FAIL = 2;
const INFO = 3;
/** How a hold ended (report-data.ts HOLD_ENDS). */
const HOLD_ENDS = ['release', 'next-acquire', 'retired', 'end-of-history'];

function prefixSums(deltas) {
  const out = new Float64Array(deltas.length);
  let acc = 0;
  for (let i = 0; i < deltas.length; i++) out[i] = acc += deltas[i];
  return out;
}

/** The columns back into arrays; `fields` maps each sparse column to a dense array (undefined: absent). */
function decodeHistory(cols) {
  const n = cols.n;
  const fields = new Map();
  for (const col of cols.sparse) {
    const dense = new Array(n);
    const at = prefixSums(col.at);
    for (let i = 0; i < at.length; i++) dense[at[i]] = col.dict ? col.dict[col.codes[i]] : col.values[i];
    fields.set(col.key, dense);
  }
  return {
    n,
    index: prefixSums(cols.index),
    time: cols.timeDeltas ? prefixSums(cols.time) : Float64Array.from(cols.time),
    process: Int32Array.from(cols.process),
    type: Uint8Array.from(cols.type),
    fDict: cols.fDict,
    f: Uint16Array.from(cols.f),
    fields,
  };
}

/** One op as the history has it: every field, in the schema's order, extras after. */
function opAt(h, line) {
  const op = {
    index: h.index[line],
    time: h.time[line],
    process: h.process[line] === -1 ? 'nemesis' : h.process[line],
    type: OP_TYPES[h.type[line]],
    f: h.fDict[h.f[line]],
    value: null,
  };
  // defineProperty, not assignment: a field may be called `__proto__`.
  for (const [key, dense] of h.fields)
    if (dense[line] !== undefined) Object.defineProperty(op, key, { value: dense[line], enumerable: true, writable: true, configurable: true });
  return op;
}

function field(h, key, line) {
  const dense = h.fields.get(key);
  return dense === undefined || line < 0 ? undefined : dense[line];
}

/** Everything the page draws, derived once from the embedded data. */
function buildModel(data) {
  const h = decodeHistory(data.history);
  const spanEnd = data.span[1] > data.span[0] ? data.span[1] : data.span[0] + 1;
  const n = data.pairs.inv.length;
  const inv = Int32Array.from(prefixSums(data.pairs.inv));
  const done = new Int32Array(n);
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const outcome = new Uint8Array(n);
  const lane = Int32Array.from(data.pairs.lane);
  for (let p = 0; p < n; p++) {
    done[p] = data.pairs.done[p] === 0 ? -1 : inv[p] + data.pairs.done[p];
    start[p] = h.time[inv[p]];
    end[p] = done[p] === -1 ? spanEnd : Math.max(start[p], h.time[done[p]]);
    outcome[p] = done[p] === -1 ? PENDING : h.type[done[p]];
  }
  const lanes = data.lanes.map((l) => ({ ...l, pairs: [] }));
  for (let p = 0; p < n; p++) lanes[lane[p]].pairs.push(p);
  for (const l of lanes) {
    l.pairs = Int32Array.from(l.pairs);
    // Ops of one process are sequential, so both starts and ends ascend: binary-searchable.
    l.starts = Float64Array.from(l.pairs, (p) => start[p]);
    l.ends = Float64Array.from(l.pairs, (p) => end[p]);
  }
  const holdsByLane = lanes.map(() => []);
  const hd = data.holds;
  for (let i = 0; i < hd.lane.length; i++) {
    holdsByLane[hd.lane[i]].push({
      lane: hd.lane[i],
      start: hd.start[i],
      end: hd.end[i],
      definite: hd.definite[i] === 1,
      endedBy: HOLD_ENDS[hd.endedBy[i]],
      token: field(h, 'token', hd.acquireLine[i]),
      acquireLine: hd.acquireLine[i],
      releaseLine: hd.releaseLine[i],
    });
  }
  const results = data.results;
  const anomalies = data.anomalies.map((ref, i) => {
    const checker = results.checkers[ref.checker];
    return { ...ref, id: i, checkerName: checker.checker, anomaly: checker.anomalies[ref.anomaly] };
  });
  return {
    data,
    h,
    span: [data.span[0], spanEnd],
    pairs: { n, inv, done, start, end, outcome, lane },
    lanes,
    holdsByLane,
    faults: data.faults,
    anomalies,
    completions: completionTimes(outcome, end, done),
  };
}

/** Completion times per outcome, sorted, for throughput by binary search. */
function completionTimes(outcome, end, done) {
  const by = [[], [], [], []];
  for (let p = 0; p < outcome.length; p++) if (done[p] !== -1) by[outcome[p]].push(end[p]);
  return by.map((xs) => Float64Array.from(xs).sort());
}

/** First position in the ascending array `xs` whose value is >= t. */
function lowerBound(xs, t) {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position whose value is > t. */
function upperBound(xs, t) {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The positions [from, to) of a lane's bars that overlap [t0, t1]. */
function visibleRange(lane, t0, t1) {
  return [lowerBound(lane.ends, t0), upperBound(lane.starts, t1)];
}
