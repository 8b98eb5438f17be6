/**
 * Import Porcupine's key-value histories: one EDN map a line,
 * `{:process 0, :type :invoke, :f :get, :key "6", :value nil}`, f one of
 * get, put, append.
 *
 * Jepsen's independent-key convention: an op on one key of many carries the
 * tuple `[key, value]` as its value (jepsen.independent), so the key moves
 * into `value` and the op has no `key` field. The format has no index or
 * time; the op's position stands in for both (index order is real-time order).
 *
 * Why a fast path: Porcupine writes every line in one exact shape, and one
 * regular expression reads it several times faster than the EDN reader,
 * above all in a fresh process where the reader is not yet compiled (c50:
 * 7,500 lines). Any line not in that shape (other key order, escapes,
 * other spacing) goes through the EDN reader, which also gives the errors.
 */
import { ParseError } from '../../core/errors.js';
import { ednValuePosition, parseEdn, type EdnForm } from './edn.js';
import { checkedValue, ednMap } from './edn-importer.js';
import type { ImportOptions } from '../../core/history/history-warning.js';
import type { Op, OpType, Value } from '../../core/history/op.js';
import { describeValue, opFromRecord, type FieldFailure } from '../../core/history/op-from-record.js';
import { lineOpParser, type OpParser } from './op-parser.js';
import { detached, StringPool } from './detached-strings.js';

const KV_FUNCTIONS: ReadonlySet<string> = new Set(['get', 'put', 'append']);
const KV_LINE = /^\{:process (\d+), :type :(invoke|ok|fail|info), :f :(get|put|append), :key "([^"\\]*)", :value (?:nil|"([^"\\]*)")\}$/;

/** A push parser of Porcupine kv histories; `file` is named in errors. */
export function porcupineKvParser(file: string, opts: ImportOptions = {}): OpParser {
  let position = 0;
  // Past the first ops, keys and fs shared and values detached from their lines (detached-strings.ts), so that a
  // long history's memory is its ops, not its file too. The first ops keep what they hold alive (the first read
  // chunk or two, at most about 2 MiB), and a short history (the corpus) pays nothing for it.
  const strings = new StringPool();
  return lineOpParser(file, (text, line) => {
    const m = KV_LINE.exec(text);
    // The fast path's values are [key, string or nil] by construction: the shape any value check wants of a kv op.
    if (m !== null) return position < DETACH_AFTER_OPS ? opFromMatch(m, position++) : detachedOpFromMatch(m, position++, strings);
    if (text.trim() === '') return null;
    const form = formAt(text, file, line);
    return checkedValue(opFromKvForm(form, position++, file), form, file, opts.checkValue);
  });
}

/** One kv map, read by the EDN reader, as an Op whose value is `[key, value]`. */
export function opFromKvForm(form: EdnForm, position: number, file: string): Op {
  const rec = ednMap(form, file);
  const fail: FieldFailure = (key, expected, found) => {
    throw new ParseError(ednValuePosition(form, file, key), `\`:${key}\` to be ${expected}`, found);
  };
  const key = rec.key;
  if (typeof key !== 'string') fail('key', 'a string', describeValue(key, 'key'));
  const op = opFromRecord(rec, { index: position, time: position }, fail, 'key');
  if (!KV_FUNCTIONS.has(op.f)) fail('f', 'one of get, put, append', describeValue(op.f));
  op.value = [key, op.value];
  return op;
}

/** Ops read before this many keep their strings as cut from the line. */
const DETACH_AFTER_OPS = 10_000;

function opFromMatch(m: RegExpExecArray, position: number): Op {
  const value: Value = m[5] ?? null;
  return { index: position, time: position, process: Number(m[1]), type: m[2] as OpType, f: m[3] as string, value: [m[4] as string, value] };
}

function detachedOpFromMatch(m: RegExpExecArray, position: number, strings: StringPool): Op {
  const value: Value = m[5] === undefined ? null : detached(m[5]);
  return {
    index: position,
    time: position,
    process: Number(m[1]),
    type: strings.shared(m[2]!) as OpType,
    f: strings.shared(m[3]!),
    value: [strings.shared(m[4]!), value],
  };
}

function formAt(text: string, file: string, line: number): EdnForm {
  const column = text.length - text.trimStart().length + 1;
  return { value: parseEdn(text, { file, line, column: 1 }), line, column, text: text.trimStart() };
}
