/**
 * Streaming line reader for the line-oriented history formats.
 *
 * Why not `readline`: it hides whether the file's last line ended with a
 * newline, and that is exactly how an interrupted run shows (the writer ends
 * every op with `\n`, so a last line without one was cut mid-write). It also
 * emits one event per line; splitting each chunk with one native `split` is
 * several times faster on the corpus. Lines come in batches, one per chunk,
 * so callers can parse without an `await` per line.
 */
import { createReadStream } from 'node:fs';
import { EXIT, FencecheckError } from '../errors.js';

export interface LineBatch {
  /** 1-based line number of `lines[0]`. */
  firstLine: number;
  /** The lines, without `\n` or a trailing `\r`. */
  lines: string[];
  /** Set on the last batch when the file does not end with a newline: its last line may be cut short. */
  unterminatedTail: boolean;
}

/** Chunks as the stream decodes them (UTF-8 sequences split across chunks are reassembled by the decoder). */
export async function* readTextChunks(path: string): AsyncGenerator<string> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 });
  try {
    for await (const chunk of stream) yield chunk as string;
  } catch (err) {
    throw ioError(path, err);
  } finally {
    stream.destroy();
  }
}

/** The file's lines in batches; a UTF-8 byte order mark on the first line is dropped. */
export async function* readLines(path: string): AsyncGenerator<LineBatch> {
  let rest = '';
  let next = 1;
  let first = true;
  for await (const chunk of readTextChunks(path)) {
    let text = rest + chunk;
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    if (lines.length === 0) continue;
    for (let i = 0; i < lines.length; i++) lines[i] = stripCr(lines[i] as string);
    yield { firstLine: next, lines, unterminatedTail: false };
    next += lines.length;
  }
  if (rest !== '') yield { firstLine: next, lines: [stripCr(rest)], unterminatedTail: true };
}

/** Wrap a file system error as a typed tool error that names the file. */
export function ioError(path: string, err: unknown): FencecheckError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String((err as Error)?.message ?? err);
  return new FencecheckError('io', `Cannot read history ${path}: ${why}`, {
    hint: 'Check the path; a run writes its history to results/<test>/<timestamp>/history.jsonl.',
    cause: err,
    exitCode: EXIT.badInput,
  });
}

function stripCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}
