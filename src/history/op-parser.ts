/**
 * The shape every importer has: a push parser that turns text chunks into
 * ops; the driver that feeds one a file chunk by chunk; and the parser shared
 * by the line-oriented formats. Parsers are synchronous so reading a history
 * never pays an `await` per op or line.
 */
import { LineSplitter, type LineBatch } from './line-splitter.js';
import type { Op } from './op.js';
import { readChunks } from './read-chunks.js';

export interface OpParser {
  /** The ops completed by `chunk`. */
  push(chunk: string): Op[];
  /** The input is over: the last ops, or a ParseError for an unfinished one. */
  end(): Op[];
}

/** Builds the parser once the first chunk is known (so the format can be detected from it); '' for an empty file. */
export type ParserFactory = (firstChunk: string) => OpParser;

/** The file's ops in batches, one per chunk read (empty batches are skipped). */
export function* opBatches(path: string, makeParser: ParserFactory): Generator<Op[]> {
  let parser: OpParser | null = null;
  for (const chunk of readChunks(path)) {
    parser ??= makeParser(chunk);
    const ops = parser.push(chunk);
    if (ops.length > 0) yield ops;
  }
  const ops = (parser ?? makeParser('')).end();
  if (ops.length > 0) yield ops;
}

/**
 * A push parser for a line-oriented format: `parseLine` turns one line into an
 * op, or null to skip it; `cutShort` is set on a last line with no newline.
 * `atEnd` runs once the input is over (to report what was skipped).
 */
export function lineOpParser(parseLine: (text: string, line: number, cutShort: boolean) => Op | null, atEnd?: () => void): OpParser {
  const lines = new LineSplitter();
  const parse = (batch: LineBatch | null): Op[] => {
    const ops: Op[] = [];
    if (batch === null) return ops;
    const last = batch.lines.length - 1;
    for (let i = 0; i <= last; i++) {
      const op = parseLine(batch.lines[i] as string, batch.firstLine + i, batch.unterminatedTail && i === last);
      if (op !== null) ops.push(op);
    }
    return ops;
  };
  return {
    push: (chunk) => parse(lines.push(chunk)),
    end: () => {
      const ops = parse(lines.end());
      atEnd?.();
      return ops;
    },
  };
}
