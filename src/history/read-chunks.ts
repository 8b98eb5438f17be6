/**
 * A history file as text chunks, read with synchronous reads.
 *
 * Why synchronous: on the corpus, each asynchronous file read (a stream or
 * fs/promises) costs about 0.3 ms in thread-pool round trips (open, stat,
 * read, close), ten times the parsing of a 6 KiB etcd log: 30 ms of the
 * 102 files' budget, against under 1 ms read synchronously. A history is read
 * right before a CPU-bound check that holds the event loop anyway, and reads
 * come in bounded chunks, so memory stays flat on a large file and the loop
 * is never held for more than one chunk's read.
 *
 * Only regular files are read: a FIFO would block a synchronous read forever
 * (and hold the whole process), and a device such as /dev/zero never ends.
 * The file is opened non-blocking so even opening a FIFO returns at once, and
 * refused after fstat. The total read is bounded (read-limits.ts).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { TextDecoder } from 'node:util';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { invalidUtf8Error } from './invalid-utf8.js';
import { DEFAULT_READ_LIMITS, tooLargeError } from '../../core/history/read-limits.js';

/** Default chunk size: large enough that the corpus' biggest file (318 KB) is one chunk. */
export const CHUNK_BYTES = 1 << 20;

/**
 * The file's text in chunks; UTF-8 sequences cut by a chunk boundary are
 * reassembled, a byte order mark dropped. Refuses anything but a regular file,
 * a file larger than `maxBytes` (by its size before reading, and while
 * reading), and bytes that are not UTF-8 (decoded strictly: a lenient decoder
 * reads every bad sequence as the same U+FFFD, so different bytes compare
 * equal; invalid-utf8.ts).
 */
export function* readChunks(
  path: string,
  chunkBytes: number = CHUNK_BYTES,
  maxBytes: number = DEFAULT_READ_LIMITS.maxHistoryBytes,
  onOpen?: (fd: number) => void,
): Generator<string> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw ioError(path, err);
  }
  try {
    // Before fstat and any read: a caller that refuses what was opened (a link out of a run directory) sees nothing of it.
    onOpen?.(fd);
    const size = assertRegularFile(fd, path);
    // By its size first: a file over the bound is refused before a byte of it is read.
    if (size > maxBytes) throw tooLargeError(path, maxBytes);
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    // No bigger than the file (one more byte to see the end in the same read): a 1 MiB buffer for each of a hundred
    // small files was 100 MB of external memory, and the garbage collections it set off were a third of the parse.
    const bufBytes = Math.min(chunkBytes, size + 1);
    const buf = Buffer.allocUnsafe(bufBytes);
    let first = true;
    let total = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, bufBytes, null);
      } catch (err) {
        throw ioError(path, err);
      }
      if (n === 0) break;
      total += n;
      // The file may have grown since fstat (a run still appending): the bound holds while reading.
      if (total > maxBytes) throw tooLargeError(path, maxBytes);
      let text = decode(decoder, buf.subarray(0, n), path);
      if (text === '') continue; // a multi-byte sequence still incomplete
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      if (text !== '') yield text;
    }
    const tail = decode(decoder, undefined, path);
    if (tail !== '') yield tail;
  } finally {
    closeSync(fd);
  }
}

/** Strict streaming decoding (`bytes` undefined: the end, where a cut sequence is an error too). */
function decode(decoder: TextDecoder, bytes: Uint8Array | undefined, path: string): string {
  try {
    return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') throw invalidUtf8Error(path);
    throw err;
  }
}

/** The file's size; throws unless it is a regular file. */
function assertRegularFile(fd: number, path: string): number {
  const info = fstatSync(fd);
  if (info.isFile()) return info.size;
  const kind = info.isFIFO()
    ? 'a FIFO (named pipe)'
    : info.isCharacterDevice()
      ? 'a character device'
      : info.isBlockDevice()
        ? 'a block device'
        : info.isSocket()
          ? 'a socket'
          : info.isDirectory()
            ? 'a directory'
            : 'not a regular file';
  throw new FencecheckError('io', `Cannot read history ${path}: it is ${kind}, not a regular file`, {
    hint: 'Save the history to a file first (a pipe or device could block or never end), then check the file.',
    exitCode: EXIT.badInput,
  });
}

/** Wrap a file system error as a typed tool error that names the file. */
export function ioError(path: string, err: unknown): FencecheckError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a directory'
        : code === 'ELOOP'
          ? 'a loop of symbolic links'
          : String((err as Error | undefined)?.message ?? err);
  return new FencecheckError('io', `Cannot read history ${path}: ${why}`, {
    hint: 'Check the path; a run writes its history to results/<test>/<timestamp>/history.jsonl.',
    cause: err,
    exitCode: EXIT.badInput,
  });
}
