/**
 * One validation of an operation's fields, shared by every importer.
 *
 * A JSON Lines object and a Jepsen EDN op map (keywords already read as
 * strings) have the same shape, so both go through `opFromRecord`. The
 * importer supplies how to report a bad field (it knows the file, the line and
 * how its format spells a field name) and, for formats that carry no index or
 * time, the value to use instead (the op's position: see docs/history.md).
 */
import type { Op, OpType, Process, Value } from './op.js';

/** Report a bad field: `key` is the field, `expected` describes a valid value, `found` the value seen. */
export type FieldFailure = (key: string, expected: string, found: string) => never;

export interface RecordDefaults {
  /** Used when `index` is absent; when undefined, a missing `index` is an error. */
  index?: number;
  /** Used when `time` is absent; when undefined, a missing `time` is an error. */
  time?: number;
}

const OP_TYPES: ReadonlySet<string> = new Set<OpType>(['invoke', 'ok', 'fail', 'info']);
/** The schema's own fields; any other key is an extra field. */
export const CORE_FIELDS: ReadonlySet<string> = new Set(['index', 'time', 'process', 'type', 'f', 'value', 'error']);

/**
 * Build an Op from a decoded record, or call `fail` on the first field that is
 * missing or of the wrong type. Keys other than the schema's become extra
 * fields, except `omit` (a field the importer moves elsewhere itself).
 */
export function opFromRecord(rec: { [key: string]: Value }, defaults: RecordDefaults, fail: FieldFailure, omit?: string): Op {
  const op: Op = {
    index: count(rec, 'index', defaults.index, 'a non-negative integer', Number.isSafeInteger, fail),
    time: count(rec, 'time', defaults.time, 'a non-negative number', Number.isFinite, fail),
    process: processOf(rec, fail),
    type: typeOf(rec, fail),
    f: fOf(rec, fail),
    // Jepsen ops often carry no value (an acquire, a nemesis start): absent reads as null.
    value: rec.value ?? null,
  };
  if (rec.error !== undefined) op.error = rec.error;
  // for-in, not Object.keys: no array per op (records are plain objects with nothing enumerable inherited).
  for (const key in rec) {
    if (key !== omit && !CORE_FIELDS.has(key)) setField(op, key, rec[key] as Value);
  }
  return op;
}

/** Assign a field, keeping a `__proto__` key as data rather than letting it replace the prototype. */
export function setField(obj: { [key: string]: Value | undefined }, key: string, value: Value): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** Describe a found value for an error message: short, and in JSON spelling. */
export function describeValue(v: Value | undefined, key?: string): string {
  if (v === undefined) return key === undefined ? 'nothing' : `no \`${key}\` field`;
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function count(
  rec: { [key: string]: Value },
  key: 'index' | 'time',
  fallback: number | undefined,
  expected: string,
  accept: (n: number) => boolean,
  fail: FieldFailure,
): number {
  const v = rec[key];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !accept(v) || v < 0) fail(key, expected, describeValue(v, key));
  return v;
}

function processOf(rec: { [key: string]: Value }, fail: FieldFailure): Process {
  const v = rec.process;
  if (v === 'nemesis') return v;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    fail('process', 'a non-negative integer or nemesis', describeValue(v, 'process'));
  }
  return v;
}

function typeOf(rec: { [key: string]: Value }, fail: FieldFailure): OpType {
  const v = rec.type;
  if (typeof v !== 'string' || !OP_TYPES.has(v)) fail('type', 'one of invoke, ok, fail, info', describeValue(v, 'type'));
  return v as OpType;
}

function fOf(rec: { [key: string]: Value }, fail: FieldFailure): string {
  const v = rec.f;
  if (typeof v !== 'string' || v === '') fail('f', 'a non-empty string', describeValue(v, 'f'));
  return v;
}
