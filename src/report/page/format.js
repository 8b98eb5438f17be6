// Formatting for people: times of the history's nanosecond clock, durations, counts, values.

const NS_PER_S = 1e9;

/** A time since the start of the test, in seconds, with as many decimals as `spanNs` needs. */
function fmtSeconds(ns, spanNs) {
  const span = spanNs === undefined ? 10 * NS_PER_S : spanNs;
  const digits = span >= 100 * NS_PER_S ? 2 : span >= 1 * NS_PER_S ? 3 : span >= 1e6 ? 6 : 9;
  return `${(ns / NS_PER_S).toFixed(digits)} s`;
}

/** Tick labels for a time axis: seconds with just the decimals the tick step needs. */
function secondsTickFormat(scale, count) {
  const ticks = scale.ticks(count);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : scale.domain()[1] - scale.domain()[0];
  const digits = Math.min(9, Math.max(0, Math.ceil(-Math.log10(step / NS_PER_S) - 1e-9)));
  return (t) => `${(t / NS_PER_S).toFixed(digits)} s`;
}

/** A duration with a unit that fits: ns, µs, ms or s. */
function fmtDuration(ns) {
  const a = Math.abs(ns);
  if (a < 1e3) return `${Math.round(ns)} ns`;
  if (a < 1e6) return `${(ns / 1e3).toFixed(a < 1e4 ? 2 : 1)} µs`;
  if (a < 1e9) return `${(ns / 1e6).toFixed(a < 1e7 ? 2 : 1)} ms`;
  return `${(ns / 1e9).toFixed(a < 1e10 ? 3 : 2)} s`;
}

function fmtCount(n) {
  return Number(n).toLocaleString('en-US');
}

/** Any JSON value as compact text, cut at `max` characters. */
function fmtValue(v, max) {
  const limit = max === undefined ? 300 : max;
  const text = v === undefined ? '' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** A value for short labels: strings without quotes. */
function fmtShort(v, max) {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? (v.length > (max || 24) ? `${v.slice(0, (max || 24) - 1)}…` : v) : fmtValue(v, max || 24);
}

function plural(n, word, words) {
  return `${fmtCount(n)} ${n === 1 ? word : words || `${word}s`}`;
}
