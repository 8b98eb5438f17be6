/**
 * Import a Jepsen EDN history: one vector of op maps, or op maps one after
 * another (docs/history.md). `:type`, `:f`, `:process` (an integer or
 * `:nemesis`), `:value`, `:time`, `:index` and `:error` map onto the Op
 * fields; every other key becomes an extra field. Old histories (Knossos')
 * have no `:value` on many ops (read as null), and some have no `:index` or
 * `:time`: the op's position stands in for both, so index order is then
 * real-time order.
 */
import { ParseError } from '../../core/errors.js';
import { EdnReader, ednValuePosition, type EdnForm } from './edn.js';
import type { ImportOptions, ValueCheck } from '../../core/history/history-warning.js';
import type { Op, Value } from '../../core/history/op.js';
import { describeValue, opFromRecord } from '../../core/history/op-from-record.js';
import type { OpParser } from './op-parser.js';
import { EDN_TAG, ednTagOf, isTaggedLiteralKey, keywordName } from '../../core/history/edn-value.js';

/** The op fields whose keyword value is read as its name. */
const NAME_FIELDS = ['type', 'f', 'process', 'error'] as const;

// A keyword-keyed map's entries by name (a string-keyed one as it is), names unwrapped; undefined for any other value.
function opRecordOf(v: Value): { [key: string]: Value } | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const tagged = ednTagOf(v);
  let record: { [key: string]: Value };
  if (tagged === undefined) record = v;
  else if (tagged.tag === EDN_TAG.keywordMap && typeof tagged.payload === 'object' && tagged.payload !== null && !Array.isArray(tagged.payload))
    record = tagged.payload; // the reader made it for this op alone: named in place, not copied (the hot path of an EDN read)
  else return undefined;
  for (const field of NAME_FIELDS) {
    const name = keywordName(record[field]);
    if (name !== undefined) record[field] = name;
  }
  return record;
}

/** Turns one top-level form into an op; `position` is how many ops came before it. */
export type FormToOp = (form: EdnForm, position: number, file: string) => Op;

/** A push parser of Jepsen EDN histories; `file` is named in errors. */
export function ednParser(file: string, opts: ImportOptions = {}): OpParser {
  const checkValue = opts.checkValue;
  return ednFormParser(
    file,
    checkValue === undefined ? opFromEdnForm : (form, position) => checkedValue(opFromEdnForm(form, position, file), form, file, checkValue),
  );
}

/** The op, or a ParseError at its `:value` when the value does not have the shape `checkValue` declares. */
export function checkedValue(op: Op, form: EdnForm, file: string, checkValue: ValueCheck | undefined): Op {
  const expected = checkValue?.(op);
  if (!expected) return op;
  throw new ParseError(ednValuePosition(form, file, 'value'), `\`:value\` to be ${expected} (${op.type} ${op.f})`, describeValue(op.value));
}

/** A push parser that reads EDN forms and turns each into an op with `toOp`. */
export function ednFormParser(file: string, toOp: FormToOp): OpParser {
  const reader = new EdnReader(file);
  let position = 0;
  const convert = (forms: EdnForm[]): Op[] => forms.map((form) => toOp(form, position++, file));
  return {
    push: (chunk) => convert(reader.push(chunk)),
    end: () => convert(reader.end()),
  };
}

/** One EDN op map as an Op. */
export function opFromEdnForm(form: EdnForm, position: number, file: string): Op {
  return opFromRecord(ednMap(form, file), { index: position, time: position }, (key, expected, found) => {
    throw new ParseError(ednValuePosition(form, file, key), `\`:${key}\` to be ${expected}`, found);
  });
}

/**
 * The form's op map by its keys' names, or a ParseError at the form when it is
 * not a map. The reader keeps keyword-keyed maps and keyword values apart from
 * strings (edn-value.ts); an op's own fields are names, not compared values, so
 * here `{:type :invoke, :f :read, :process :nemesis}` reads as the JSON op
 * `{"type": "invoke", "f": "read", "process": "nemesis"}`. Its `:value` and
 * every extra field stay as read. A tagged op (`#jepsen.history.Op{...}`)
 * is its map.
 */
export function ednMap(form: EdnForm, file: string): { [key: string]: Value } {
  let v = form.value;
  const tagged = ednTagOf(v);
  if (tagged !== undefined && isTaggedLiteralKey(tagged.tag)) v = tagged.payload;
  const record = opRecordOf(v);
  if (record !== undefined) return record;
  throw new ParseError({ file, line: form.line, column: form.column }, 'an op map like {:type :invoke, :f :read, :process 0}', describeValue(v));
}
