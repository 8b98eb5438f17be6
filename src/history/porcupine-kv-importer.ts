/**
 * Import Porcupine's key-value histories: one EDN map a line,
 * `{:process 0, :type :invoke, :f :get, :key "6", :value nil}`, f one of
 * get, put, append.
 *
 * Jepsen's independent-key convention: an op on one key of many carries the
 * tuple `[key, value]` as its value (jepsen.independent), so the key moves
 * into `value` and the op has no `key` field. The format has no index or
 * time; the op's position stands in for both (index order is real-time order).
 */
import { ParseError } from '../errors.js';
import { ednValuePosition, type EdnForm } from './edn.js';
import { ednMap, opsFromEdnFile } from './edn-importer.js';
import type { Op } from './op.js';
import { describeValue, opFromRecord, type FieldFailure } from './op-from-record.js';

const KV_FUNCTIONS: ReadonlySet<string> = new Set(['get', 'put', 'append']);

/** The ops of a Porcupine kv history, one batch per chunk read. */
export function importPorcupineKv(path: string): AsyncGenerator<Op[]> {
  return opsFromEdnFile(path, opFromKvForm);
}

/** One kv line's map as an Op whose value is `[key, value]`. */
export function opFromKvForm(form: EdnForm, position: number, file: string): Op {
  const rec = ednMap(form, file);
  const fail: FieldFailure = (key, expected, found) => {
    throw new ParseError(ednValuePosition(form, file, key), `\`:${key}\` to be ${expected}`, found);
  };
  const { key, ...rest } = rec;
  if (typeof key !== 'string') fail('key', 'a string', describeValue(key, 'key'));
  const op = opFromRecord({ ...rest, value: [key, rec.value ?? null] }, { index: position, time: position }, fail);
  if (!KV_FUNCTIONS.has(op.f)) fail('f', 'one of get, put, append', describeValue(op.f));
  return op;
}
