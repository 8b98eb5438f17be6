/**
 * writeFileAtomic: a run file is either its old content or its new content,
 * never half of one, even when the machine dies or the disk fills mid-write.
 *
 * The text goes to a temporary file in the same directory (a rename is atomic
 * only within one file system), is fsynced, renamed over the target, and the
 * directory is fsynced so the rename itself survives a crash (Jepsen's store
 * and every database do the same). A full disk becomes a DiskFullError naming
 * the file, and the temporary file is removed: the target is left untouched.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EXIT, FencecheckError } from '../../core/errors.js';

/** The file system calls the write needs; injectable so a test can fill the disk. */
export interface WriteIo {
  openSync: typeof openSync;
  writeSync: (fd: number, bytes: Uint8Array) => number;
  fsyncSync: typeof fsyncSync;
  closeSync: typeof closeSync;
  renameSync: typeof renameSync;
  rmSync: typeof rmSync;
}

export const nodeIo: WriteIo = { openSync, writeSync: (fd, bytes) => writeSync(fd, bytes), fsyncSync, closeSync, renameSync, rmSync };

/** The disk (or the user's quota) is full: the file named was not written. Exit 254: the results dir is the problem, not the tool. */
export class DiskFullError extends FencecheckError {
  readonly file: string;
  constructor(file: string, cause: unknown) {
    super('disk-full', `${file} was not written: no space left on the device`, {
      hint: 'Free space on the disk of the results directory, or give the run a results directory on another disk (run: --results; compare and scenario run: --out); the file keeps its previous content.',
      exitCode: EXIT.badInput,
      cause,
    });
    this.file = file;
  }
}

let counter = 0;

export function writeFileAtomic(path: string, text: string, io: WriteIo = nodeIo): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
  try {
    const fd = io.openSync(temp, 'w', 0o644);
    try {
      // writeSync may write fewer bytes than asked.
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      while (done < bytes.length) done += io.writeSync(fd, bytes.subarray(done));
      io.fsyncSync(fd);
    } finally {
      io.closeSync(fd);
    }
    io.renameSync(temp, path);
  } catch (err) {
    io.rmSync(temp, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new DiskFullError(path, err);
    throw new FencecheckError('run-file-write', `${path} was not written: ${(err as Error).message}`, {
      hint: 'Check that the results directory exists and is writable.',
      exitCode: EXIT.badInput,
      cause: err,
    });
  }
  syncDir(dirname(path), io);
}

/** fsync a directory so a rename in it is durable; some file systems refuse, which changes nothing we can act on. */
function syncDir(dir: string, io: WriteIo): void {
  let fd: number | undefined;
  try {
    fd = io.openSync(dir, 'r');
    io.fsyncSync(fd);
  } catch {
    // e.g. EISDIR/EINVAL on file systems without directory fsync: the rename is done, only its durability is weaker.
  } finally {
    if (fd !== undefined) io.closeSync(fd);
  }
}
