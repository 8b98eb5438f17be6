/**
 * The one entry point for loading a history from disk, in any format we
 * import: fencecheck's JSON Lines, Jepsen EDN, the Jepsen etcd logs and the
 * Porcupine kv logs of the public corpus (docs/history.md). The format is
 * detected from the file's first chunk unless given; every op is checked
 * against the structural rules (validate-history.ts) as it is read.
 */
import { DEFAULT_PARSE_HINT, ParseError, UsageError } from '../../core/errors.js';
import { DETECT_BYTES, detectFormat, HISTORY_FORMATS, type HistoryFormat } from './detect-format.js';
import { ednParser } from './edn-importer.js';
import type { ImportOptions } from '../../core/history/history-warning.js';
import { jsonlParser } from './jsonl-reader.js';
import type { History, Op } from '../../core/history/op.js';
import { opBatches, type OpParser } from './op-parser.js';
import { porcupineEtcdParser } from './porcupine-etcd-importer.js';
import { porcupineKvParser } from './porcupine-kv-importer.js';
import type { ReadLimits } from '../../core/history/read-limits.js';
import { HistoryValidator } from '../../core/history/validate-history.js';
import { UTF8_EXPECTED } from './invalid-utf8.js';
import { LINE_END_EXPECTED } from './line-splitter.js';

export { detectFormat, HISTORY_FORMATS, type HistoryFormat } from './detect-format.js';

export interface ReadHistoryOptions extends ImportOptions {
  /** Skip detection. */
  format?: HistoryFormat;
  /** Check the structural rules as ops are read (default true). */
  validate?: boolean;
  /** Bounds on size and line length (read-limits.ts defaults). */
  limits?: Partial<ReadLimits>;
  /** Told the format the file is read as, once it is known (detected or given). */
  onFormat?: (format: HistoryFormat) => void;
  /** Given the file's descriptor once opened, before a byte is read; may throw (a run's history must really be in its run directory). */
  onOpen?: (fd: number) => void;
}

/** Read a whole history into memory. */
export async function readHistory(path: string, opts: ReadHistoryOptions = {}): Promise<History> {
  const history: History = [];
  for (const batch of validatedBatches(path, opts)) {
    for (const op of batch) history.push(op);
  }
  return history;
}

/** Stream a history op by op: for histories too large to hold, or to follow a run's history.jsonl. */
export async function* readOps(path: string, opts: ReadHistoryOptions = {}): AsyncGenerator<Op> {
  for (const batch of validatedBatches(path, opts)) yield* batch;
}

/** A push parser for `format`; `file` is named in errors and warnings. */
export function historyParser(format: HistoryFormat, file: string, opts: ImportOptions = {}): OpParser {
  switch (format) {
    case 'jsonl':
      return jsonlParser(file, opts);
    case 'edn':
      return ednParser(file, opts);
    case 'porcupine-etcd':
      return porcupineEtcdParser(file, opts);
    case 'porcupine-kv':
      return porcupineKvParser(file, opts);
    default:
      // Reachable only from untyped callers (a CLI flag not checked against HISTORY_FORMATS).
      throw new UsageError(`Expected \`--format\` to be one of ${HISTORY_FORMATS.join(', ')}, got \`${String(format)}\``);
  }
}

/** The file's ops in validated batches, one per chunk read: to consume a long history without holding it. */
export function* validatedBatches(path: string, opts: ReadHistoryOptions): Generator<Op[]> {
  let format: HistoryFormat | undefined;
  const makeParser = (first: string): OpParser => {
    format = opts.format ?? detectFormat(path, first.slice(0, DETECT_BYTES));
    opts.onFormat?.(format);
    return historyParser(format, path, opts);
  };
  const validator = opts.validate === false ? null : new HistoryValidator({ file: path, onWarning: opts.onWarning, checkCompletion: opts.checkCompletion });
  try {
    for (const batch of opBatches(path, makeParser, opts.limits, opts.onOpen)) {
      if (validator !== null) for (let i = 0; i < batch.length; i++) validator.check(batch[i]!);
      yield batch;
    }
  } catch (err) {
    // Bytes that are not UTF-8, or a stray line terminator, are that in any format: no format hint for them.
    throw format !== undefined && err instanceof ParseError && err.expected !== UTF8_EXPECTED && err.expected !== LINE_END_EXPECTED
      ? withFormat(err, format, opts.format !== undefined)
      : err;
  }
}

/** A parse error that says which format the file was read as, and how to pick another: a wrong format is the likeliest cause. */
function withFormat(err: ParseError, format: HistoryFormat, forced: boolean): ParseError {
  const how = forced ? 'as --format said' : 'detected from its first line and extension';
  const others = HISTORY_FORMATS.filter((f) => f !== format).join(', ');
  const own = err.hint === undefined || err.hint === DEFAULT_PARSE_HINT ? 'See docs/history.md.' : err.hint;
  const hint = `${own} The file was read as ${format} (${how}); if it is another format, pass --format ${others.replace(/, ([^,]*)$/, ' or $1')}.`.trim();
  return new ParseError({ file: err.file, line: err.line, column: err.column }, err.expected, err.found, hint);
}
