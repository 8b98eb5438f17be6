/**
 * The one entry point for loading a history from disk, in any format we
 * import: fencecheck's JSON Lines, Jepsen EDN, the Jepsen etcd logs and the
 * Porcupine kv logs of the public corpus (docs/history.md). The format is
 * detected from the content unless given; every op is checked against the
 * structural rules (validate-history.ts) as it is read.
 */
import { open } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { DETECT_BYTES, detectFormat, HISTORY_FORMATS, type HistoryFormat } from './detect-format.js';
import { importEdn } from './edn-importer.js';
import type { ImportOptions } from './history-warning.js';
import { readJsonlBatches } from './jsonl-reader.js';
import type { History, Op } from './op.js';
import { importPorcupineEtcd } from './porcupine-etcd-importer.js';
import { importPorcupineKv } from './porcupine-kv-importer.js';
import { ioError } from './read-lines.js';
import { HistoryValidator } from './validate-history.js';

export { detectFormat, HISTORY_FORMATS, type HistoryFormat } from './detect-format.js';

export interface ReadHistoryOptions extends ImportOptions {
  /** Skip detection. */
  format?: HistoryFormat;
  /** Check the structural rules as ops are read (default true). */
  validate?: boolean;
}

/** Read a whole history into memory. */
export async function readHistory(path: string, opts: ReadHistoryOptions = {}): Promise<History> {
  const history: History = [];
  for await (const batch of readOpBatches(path, opts)) {
    for (const op of batch) history.push(op);
  }
  return history;
}

/** Stream a history op by op, for histories too large to hold or to check a run while it is written. */
export async function* readOps(path: string, opts: ReadHistoryOptions = {}): AsyncGenerator<Op> {
  for await (const batch of readOpBatches(path, opts)) yield* batch;
}

/** Stream a history in batches (one per chunk read): the fast path under both of the above. */
export async function* readOpBatches(path: string, opts: ReadHistoryOptions = {}): AsyncGenerator<Op[]> {
  const format = opts.format ?? (await detectFileFormat(path));
  const validator = opts.validate === false ? null : new HistoryValidator({ file: path, onWarning: opts.onWarning });
  for await (const batch of importerFor(format)(path, opts)) {
    if (validator !== null) for (const op of batch) validator.check(op);
    yield batch;
  }
}

/** Detect a file's format from its first few KiB. */
export async function detectFileFormat(path: string): Promise<HistoryFormat> {
  let bytes: Uint8Array;
  try {
    const file = await open(path, 'r');
    try {
      const buf = new Uint8Array(DETECT_BYTES);
      const { bytesRead } = await file.read(buf, 0, DETECT_BYTES, 0);
      bytes = buf.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } catch (err) {
    throw ioError(path, err);
  }
  return detectFormat(path, bytes);
}

function importerFor(format: HistoryFormat): (path: string, opts: ImportOptions) => AsyncGenerator<Op[]> {
  switch (format) {
    case 'jsonl':
      return readJsonlBatches;
    case 'edn':
      return importEdn;
    case 'porcupine-etcd':
      return importPorcupineEtcd;
    case 'porcupine-kv':
      return importPorcupineKv;
    default:
      // Reachable only from untyped callers (a CLI flag not checked against HISTORY_FORMATS).
      throw new UsageError(`Expected \`--format\` to be one of ${HISTORY_FORMATS.join(', ')}, got \`${String(format)}\``);
  }
}
