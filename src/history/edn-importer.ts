/**
 * Import a Jepsen EDN history: one vector of op maps, or op maps one after
 * another (docs/history.md). `:type`, `:f`, `:process` (an integer or
 * `:nemesis`), `:value`, `:time`, `:index` and `:error` map onto the Op
 * fields; every other key becomes an extra field. Old histories (Knossos')
 * have no `:value` on many ops (read as null), and some have no `:index` or
 * `:time`: the op's position stands in for both, so index order is then
 * real-time order.
 */
import { ParseError } from '../errors.js';
import { EdnReader, ednValuePosition, type EdnForm } from './edn.js';
import type { Op, Value } from './op.js';
import { describeValue, opFromRecord } from './op-from-record.js';
import { readTextChunks } from './read-lines.js';

/** Turns one top-level form into an op; `position` is how many ops came before it. */
export type FormToOp = (form: EdnForm, position: number, file: string) => Op;

/** The ops of a Jepsen EDN history, one batch per chunk read. */
export function importEdn(path: string): AsyncGenerator<Op[]> {
  return opsFromEdnFile(path, opFromEdnForm);
}

/** Read `path` as a stream of EDN forms and turn each into an op with `toOp`. */
export async function* opsFromEdnFile(path: string, toOp: FormToOp): AsyncGenerator<Op[]> {
  const reader = new EdnReader(path);
  let position = 0;
  const convert = (forms: EdnForm[]): Op[] => forms.map((form) => toOp(form, position++, path));
  for await (const chunk of readTextChunks(path)) {
    const ops = convert(reader.push(chunk));
    if (ops.length > 0) yield ops;
  }
  const ops = convert(reader.end());
  if (ops.length > 0) yield ops;
}

/** One EDN op map as an Op. */
export function opFromEdnForm(form: EdnForm, position: number, file: string): Op {
  return opFromRecord(ednMap(form, file), { index: position, time: position }, (key, expected, found) => {
    throw new ParseError(ednValuePosition(form, file, key), `\`:${key}\` to be ${expected}`, found);
  });
}

/** The form's map, or a ParseError at the form when it is not a map. */
export function ednMap(form: EdnForm, file: string): { [key: string]: Value } {
  const v = form.value;
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v;
  throw new ParseError(
    { file, line: form.line, column: form.column },
    'an op map like {:type :invoke, :f :read, :process 0}',
    describeValue(v),
  );
}
