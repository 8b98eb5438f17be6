/**
 * The shape every importer has: a push parser that turns text chunks into
 * ops; the driver that feeds one a file chunk by chunk; and the parser shared
 * by the line-oriented formats. Parsers are synchronous so reading a history
 * never pays an `await` per op or line.
 */
import { ParseError } from '../../core/errors.js';
import { LineSplitter, type LineBatch } from './line-splitter.js';
import type { Op } from '../../core/history/op.js';
import { CHUNK_BYTES, readChunks } from './read-chunks.js';
import { formatMib, LIMIT_FLAGS, readLimits, type ReadLimits } from '../../core/history/read-limits.js';

export interface OpParser {
  /** The ops completed by `chunk`. */
  push(chunk: string): Op[];
  /** The input is over: the last ops, or a ParseError for an unfinished one. */
  end(): Op[];
}

/** Builds the parser once the first chunk is known (so the format can be detected from it); '' for an empty file. */
export type ParserFactory = (firstChunk: string) => OpParser;

/**
 * The file's ops in batches, one per chunk read (empty batches are skipped).
 * The file's size and its longest line are bounded by `limits` before a
 * parser ever buffers them.
 */
export function* opBatches(path: string, makeParser: ParserFactory, limits?: Partial<ReadLimits>, onOpen?: (fd: number) => void): Generator<Op[]> {
  const { maxHistoryBytes, maxLineChars } = readLimits(limits);
  const lines = new LineLengthGuard(path, maxLineChars);
  let parser: OpParser | null = null;
  for (const chunk of readChunks(path, CHUNK_BYTES, maxHistoryBytes, onOpen)) {
    lines.check(chunk);
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
 * `atEnd` runs once the input is over (to report what was skipped). Lines are
 * framed by the splitter's rule (line-splitter.ts): a stray line terminator is
 * an error at its line, after the lines before it are parsed (so the first
 * error in the file is the one reported).
 */
export function lineOpParser(file: string, parseLine: (text: string, line: number, cutShort: boolean) => Op | null, atEnd?: () => void): OpParser {
  const lines = new LineSplitter(file);
  const parse = (batch: LineBatch | null): Op[] => {
    const ops: Op[] = [];
    if (batch === null) return ops;
    const last = batch.lines.length - 1;
    for (let i = 0; i <= last; i++) {
      const op = parseLine(batch.lines[i] as string, batch.firstLine + i, batch.unterminatedTail && i === last);
      if (op !== null) ops.push(op);
    }
    if (batch.refused !== undefined) throw batch.refused;
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

/**
 * Refuses a line longer than the limit as soon as the text read shows it, in
 * every format (an EDN form cannot hide in one either): the parsers buffer an
 * unfinished line, so without this a file with no newline (/dev/zero, a
 * 600 MB line) grows the process until the machine swaps.
 *
 * Why it looks only at each chunk's first and last newline: a line wholly
 * inside one chunk is no longer than the chunk, so only the line running
 * across chunk boundaries needs counting (unless the limit is below a chunk).
 * The line number is found on the error path only, by counting newlines again.
 */
export class LineLengthGuard {
  /** Characters read before the current chunk. */
  private consumed = 0;
  /** Offset of the first character of the line still open. */
  private lineStart = 0;

  constructor(
    private readonly file: string,
    private readonly maxChars: number,
  ) {}

  check(chunk: string): void {
    const first = chunk.indexOf('\n');
    if (first < 0) {
      if (this.consumed + chunk.length - this.lineStart > this.maxChars) this.fail();
    } else {
      if (this.consumed + first - this.lineStart > this.maxChars) this.fail();
      if (chunk.length > this.maxChars) this.checkInner(chunk, first);
      const last = chunk.lastIndexOf('\n');
      this.lineStart = this.consumed + last + 1;
      if (chunk.length - last - 1 > this.maxChars) this.fail();
    }
    this.consumed += chunk.length;
  }

  // Only when the limit is smaller than a chunk: every line of the chunk.
  private checkInner(chunk: string, first: number): void {
    let from = first + 1;
    for (let nl = chunk.indexOf('\n', from); nl >= 0; from = nl + 1, nl = chunk.indexOf('\n', from)) {
      if (nl - from > this.maxChars) {
        this.lineStart = this.consumed + from;
        this.fail();
      }
    }
    this.lineStart = this.consumed + from;
  }

  private fail(): never {
    throw new ParseError(
      { file: this.file, line: lineAt(this.file, this.lineStart), column: this.maxChars + 1 },
      `a line of at most ${formatMib(this.maxChars)} characters`,
      'a longer line',
      `A history has one op per line (or per EDN form); if this file really is one, raise the limit with ${LIMIT_FLAGS.maxLineChars}.`,
    );
  }
}

/** The 1-based line at character `offset` of the file (error path only: reads the file again up to there). */
function lineAt(file: string, offset: number): number {
  let line = 1;
  let seen = 0;
  for (const chunk of readChunks(file)) {
    const end = Math.min(chunk.length, offset - seen);
    for (let i = chunk.indexOf('\n'); i >= 0 && i < end; i = chunk.indexOf('\n', i + 1)) line++;
    seen += chunk.length;
    if (seen >= offset) break;
  }
  return line;
}
