/**
 * Reading a small file fencecheck did not necessarily write (a run file, a
 * manifest, an expectations file): regular files only, at most `maxBytes`,
 * strict UTF-8.
 *
 * Why open with O_NONBLOCK and check the open descriptor: opening a FIFO for
 * reading blocks until a writer comes (forever, and inside Node's small file
 * thread pool, where four such opens froze `serve`); with O_NONBLOCK the open
 * returns at once and fstat on the descriptor (not a stat of the path, which
 * a swap could outrun) says what was opened. A regular file never blocks a
 * read indefinitely, so no timer is needed once the kind is checked; the
 * size bound holds while reading too (a file that grows, or /proc, whose
 * sizes read 0). A run's files are confined to their run directory too
 * (`inside`, confined-path.ts): a link out of it is refused before it is
 * opened, and the opened descriptor is checked again.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { LinkedOutsideError, openInside } from './confined-path.js';

/** Run files, manifests: far above what a run writes (results.json caps its anomaly lists), far below a crash. */
export const MAX_RUN_FILE_BYTES = 64 * 2 ** 20;

/** Why a file could not be read, with what it was when it is not a regular file. */
export class BoundedReadError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
    readonly code: 'ENOENT' | 'special' | 'too-large' | 'encoding' | 'io',
    cause?: unknown,
  ) {
    super(`${path}: ${why}`, cause === undefined ? undefined : { cause });
  }
}

/**
 * The file's text; throws BoundedReadError (code ENOENT when it does not exist). `inside`: the real directory
 * the file must really be in (a run's files, confined-path.ts), else LinkedOutsideError before a byte is read.
 */
export function readBoundedFile(path: string, maxBytes: number = MAX_RUN_FILE_BYTES, inside?: { root: string; what?: string }): string {
  let fd: number;
  try {
    fd = inside === undefined ? openSync(path, constants.O_RDONLY | constants.O_NONBLOCK) : openInside(path, inside.root, inside.what);
  } catch (err) {
    if (err instanceof LinkedOutsideError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new BoundedReadError(
      path,
      code === 'ENOENT' ? 'does not exist' : `cannot be opened (${code ?? (err as Error).message})`,
      code === 'ENOENT' ? 'ENOENT' : 'io',
      err,
    );
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new BoundedReadError(path, `is ${kindOf(info)}, not a regular file`, 'special');
    if (info.size > maxBytes) throw tooLarge(path, maxBytes);
    return decode(path, readAll(fd, path, maxBytes));
  } finally {
    closeSync(fd);
  }
}

function readAll(fd: number, path: string, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (err) {
      throw new BoundedReadError(path, `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'io', err);
    }
    if (n === 0) return Buffer.concat(chunks, total);
    total += n;
    if (total > maxBytes) throw tooLarge(path, maxBytes);
    chunks.push(buf.subarray(0, n));
  }
}

/** Strict: two different invalid byte sequences must not both become U+FFFD and read as equal. */
function decode(path: string, bytes: Buffer): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (err) {
    throw new BoundedReadError(path, 'is not valid UTF-8', 'encoding', err);
  }
}

function tooLarge(path: string, maxBytes: number): BoundedReadError {
  return new BoundedReadError(path, `is larger than ${Math.round(maxBytes / 2 ** 20)} MiB, the most this reader accepts`, 'too-large');
}

/** A file system object in words: what a FIFO or a device is called in a message. */
export function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a directory';
  return 'not a regular file';
}
