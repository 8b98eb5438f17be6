/**
 * The history as the page receives it: columns instead of one object per op,
 * because a 100,000-op history must fit in a few megabytes of HTML and parse
 * in milliseconds. Lossless: the page's `decodeHistory` (page/data.js) gives
 * back every field of every op, which the tooltip shows.
 *
 * - `index` and integral `time` are delta-encoded (small numbers, short text);
 * - `process` is a number, -1 for the nemesis; `type` and `f` are codes;
 * - every other field (`value`, `error`, `token`, ...) is a sparse column: the
 *   lines that have it (delta-encoded) and its values, or, for a column of a
 *   few repeated strings (`outcome`, `node`), a dictionary and codes. A
 *   `value` of null is simply absent, which reads back as null.
 *
 * `keepDetail(line)` drops the sparse fields of the lines it rejects: the
 * report's answer to histories too large to carry whole (report-data.ts).
 */
import type { History, OpType, Value } from '../../core/history/op.js';

export const OP_TYPES: readonly OpType[] = ['invoke', 'ok', 'fail', 'info'];

export interface SparseColumn {
  key: string;
  /** Lines that have the field, delta-encoded. */
  at: number[];
  /** The values, one per line in `at`; absent when `dict` is used. */
  values?: Value[];
  dict?: string[];
  codes?: number[];
}

export interface HistoryColumns {
  n: number;
  index: number[];
  /** Delta-encoded when every time is an integer (exact); raw otherwise. */
  timeDeltas: boolean;
  time: number[];
  process: number[];
  type: number[];
  fDict: string[];
  f: number[];
  sparse: SparseColumn[];
}

const FIXED = new Set(['index', 'time', 'process', 'type', 'f']);
/** A column of strings with at most this many distinct values is dictionary-coded. */
const MAX_DICT = 256;

export function encodeHistory(history: History, keepDetail: (line: number) => boolean = () => true): HistoryColumns {
  const fCodes = new Map<string, number>();
  const sparse = new Map<string, { lines: number[]; values: Value[] }>([['value', { lines: [], values: [] }]]);
  const timeDeltas = history.every((op) => Number.isInteger(op.time));
  const cols: HistoryColumns = { n: history.length, index: [], timeDeltas, time: [], process: [], type: [], fDict: [], f: [], sparse: [] };
  history.forEach((op, line) => {
    cols.index.push(op.index);
    cols.time.push(op.time);
    cols.process.push(op.process === 'nemesis' ? -1 : op.process);
    cols.type.push(OP_TYPES.indexOf(op.type));
    let code = fCodes.get(op.f);
    if (code === undefined) {
      code = cols.fDict.length;
      fCodes.set(op.f, code);
      cols.fDict.push(op.f);
    }
    cols.f.push(code);
    if (!keepDetail(line)) return;
    for (const key of Object.keys(op)) {
      const v = op[key];
      if (FIXED.has(key) || v === undefined || (key === 'value' && v === null)) continue;
      let column = sparse.get(key);
      if (column === undefined) sparse.set(key, (column = { lines: [], values: [] }));
      column.lines.push(line);
      column.values.push(v);
    }
  });
  cols.index = deltas(cols.index);
  if (timeDeltas) cols.time = deltas(cols.time);
  cols.sparse = [...sparse].filter(([, c]) => c.lines.length > 0).map(([key, c]) => sparseColumn(key, c.lines, c.values));
  return cols;
}

function sparseColumn(key: string, lines: number[], values: Value[]): SparseColumn {
  const at = deltas(lines);
  const distinct = new Map<string, number>();
  for (const v of values) {
    if (typeof v !== 'string') return { key, at, values };
    if (!distinct.has(v)) distinct.set(v, distinct.size);
    if (distinct.size > MAX_DICT) return { key, at, values };
  }
  return { key, at, dict: [...distinct.keys()], codes: values.map((v) => distinct.get(v as string)!) };
}

function deltas(xs: readonly number[]): number[] {
  return xs.map((x, i) => (i === 0 ? x : x - xs[i - 1]!));
}
