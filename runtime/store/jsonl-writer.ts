/**
 * Appending writer of history.jsonl: a run records each op the moment it is
 * known, so a run that is killed still leaves a checkable history.
 *
 * Why synchronous `writeSync` on a file descriptor, not a stream or a
 * FileHandle: once `append` returns, the line is in the kernel's page cache,
 * so it survives the process dying (a crash, SIGKILL, a clock fault that
 * wedges the event loop); a stream would still hold it in user space. Being
 * synchronous, lines land in exactly the order `append` was called, even when
 * many async clients complete at once, with no promise to await or forget. A
 * write is a few microseconds, far below any op rate we generate. We do not
 * fsync each line (milliseconds each, and only a machine crash would need
 * it); `close` calls fdatasync once so the finished history is durable.
 *
 * The file only ever holds whole lines: a line the disk has no room for
 * (ENOSPC, a file-size limit) is cut back off, so a full disk leaves the
 * history as it was before that op, still checkable, and the error says so.
 */
import { closeSync, constants, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { EXIT, FencecheckError } from '../../core/errors.js';
import type { Op } from '../../core/history/op.js';
import { CORE_FIELDS } from '../../core/history/op-from-record.js';

export interface JsonlWriterOptions {
  /** Start a fresh file instead of appending to an existing one. Default false (append). */
  truncate?: boolean;
}

export class JsonlWriter {
  readonly path: string;
  private fd: number | null;
  /** Bytes of whole lines in the file: where the next line starts. */
  private size: number;
  /** Lines appended by this writer. */
  private lines = 0;

  private constructor(path: string, fd: number) {
    this.path = path;
    this.fd = fd;
    this.size = fstatSync(fd).size;
  }

  /** Open (creating it if needed) `path` for appending ops. */
  static open(path: string, opts: JsonlWriterOptions = {}): JsonlWriter {
    try {
      // O_NOFOLLOW: a link planted at history.jsonl is refused (ELOOP), never written through.
      return new JsonlWriter(
        path,
        openSync(path, (opts.truncate ? constants.O_TRUNC : constants.O_APPEND) | constants.O_CREAT | constants.O_WRONLY | constants.O_NOFOLLOW, 0o644),
      );
    } catch (err) {
      throw writeError(path, 'open', err);
    }
  }

  /** Write one op as one line; it is in the OS's hands when this returns. */
  append(op: Op): void {
    if (this.fd === null) throw new FencecheckError('io', `History ${this.path} is closed; cannot append op ${op.index}`);
    const bytes = Buffer.from(formatJsonlLine(op));
    try {
      // writeSync may write part of a buffer (a nearly full disk): go on until all of it is written or it fails.
      for (let done = 0; done < bytes.length;) done += writeSync(this.fd, bytes, done, bytes.length - done, this.size + done);
      this.size += bytes.length;
      this.lines++;
    } catch (err) {
      // Cut off the part of the line that made it, so the file ends with the last whole op.
      try {
        ftruncateSync(this.fd, this.size);
      } catch {
        // The error below still says what happened.
      }
      throw writeError(this.path, 'write', err, `The history keeps the ${this.lines} op(s) written before this one (whole lines only).`);
    }
  }

  /** Flush to disk and close. Safe to call twice. */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      fdatasyncSync(fd);
    } catch (err) {
      throw writeError(this.path, 'sync', err);
    } finally {
      closeSync(fd);
    }
  }
}

/** One op as a JSON line with the schema's fields first, in a fixed order, then the extras. */
export function formatJsonlLine(op: Op): string {
  if (!isCount(op.index) || !isCount(op.time)) {
    throw new FencecheckError('history', `Cannot write op with index ${op.index} and time ${op.time}: both must be non-negative finite numbers`);
  }
  let line =
    `{"index":${op.index},"time":${op.time},"process":${JSON.stringify(op.process)},"type":${JSON.stringify(op.type)},` +
    `"f":${JSON.stringify(op.f)},"value":${JSON.stringify(op.value ?? null)}`;
  if (op.error !== undefined) line += `,"error":${JSON.stringify(op.error)}`;
  for (const key of Object.keys(op)) {
    const v = op[key];
    if (v !== undefined && !CORE_FIELDS.has(key)) line += `,${JSON.stringify(key)}:${JSON.stringify(v)}`;
  }
  return line + '}\n';
}

function isCount(n: number): boolean {
  return Number.isFinite(n) && n >= 0;
}

function writeError(path: string, what: string, err: unknown, kept = ''): FencecheckError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? String(err);
  const full = code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
  const link = code === 'ELOOP';
  return new FencecheckError(
    full ? 'disk-full' : 'io',
    `Cannot ${what} history ${path}: ${code}${full ? ' (no space left for it)' : link ? ' (a symbolic link is there; not followed)' : ''}. ${kept}`.trim(),
    {
      hint: full
        ? 'Free space on that file system (or pass --results on another one) and run again.'
        : 'Check that the results directory exists, is writable and has free space.',
      // A full disk, or a link someone planted, is the machine's state, not a bug of fencecheck: 254 as the run store's DiskFullError.
      ...(full || link ? { exitCode: EXIT.badInput } : {}),
      cause: err,
    },
  );
}
