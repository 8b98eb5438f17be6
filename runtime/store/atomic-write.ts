/**
 * writeFileAtomic: a file fencecheck writes is either its old content or its
 * new content, never half of one, even when the machine dies or the disk
 * fills mid-write; and never written through a link someone planted.
 * replaceLink does the same for a symbolic link (`latest`).
 *
 * The text goes to a new temporary file in the same directory (a rename is
 * atomic only within one file system), is fsynced, renamed over the target,
 * and the directory is fsynced so the rename itself survives a crash (Jepsen's
 * store and every database do the same). A full disk becomes a DiskFullError
 * naming the file, and the temporary file is removed: the target is left
 * untouched.
 *
 * Every name is created and renamed through pinned-dir.ts: the temporary file
 * is made exclusively (O_EXCL | O_NOFOLLOW) under a random name in a directory
 * opened once at its real path, so a link planted at a temporary name is never
 * followed. The target is only ever renamed over, never opened: a link at the
 * target's name is replaced by the new file, and what it pointed at is left
 * as it was. `inside` (report --index, serve) refuses a directory whose real
 * path is not under the results directory.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { createExclusive, openPinnedDir, tempName, UnsafeDirError, type PinnedDir } from './pinned-dir.js';

/** The file system calls the write needs; injectable so a test can fill the disk. */
export interface WriteIo {
  openSync: (path: string, flags: number, mode: number) => number;
  writeSync: (fd: number, bytes: Uint8Array) => number;
  fsyncSync: typeof fsyncSync;
  closeSync: typeof closeSync;
  renameSync: typeof renameSync;
  rmSync: typeof rmSync;
}

export const nodeIo: WriteIo = { openSync, writeSync: (fd, bytes) => writeSync(fd, bytes), fsyncSync, closeSync, renameSync, rmSync };

export interface WriteOptions {
  io?: WriteIo;
  /** The directory the file's directory must really be under (links followed); by default anywhere. */
  inside?: string;
  /** fsync the file and the directory (default): false where only a killed process matters, not a crashed machine (the state file). */
  durable?: boolean;
}

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

export function writeFileAtomic(path: string, text: string, opts: WriteOptions = {}): void {
  const io = opts.io ?? nodeIo;
  replaceEntry(path, opts, (dir) => {
    const { fd, name } = createExclusive(dir, basename(path), io.openSync);
    try {
      // writeSync may write fewer bytes than asked.
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      while (done < bytes.length) done += io.writeSync(fd, bytes.subarray(done));
      if (opts.durable !== false) io.fsyncSync(fd);
    } catch (err) {
      io.closeSync(fd);
      io.rmSync(dir.entry(name), { force: true });
      throw err;
    }
    io.closeSync(fd);
    return name;
  });
}

/** `path` made a symbolic link to `target` at once: a new link under a random name, renamed over the old one (a reader sees one or the other). */
export function replaceLink(path: string, target: string, opts: WriteOptions = {}): void {
  replaceEntry(path, opts, (dir) => {
    // symlink(2) never follows a name that exists: it fails with EEXIST, and another name is drawn.
    for (let attempt = 1; ; attempt++) {
      const name = tempName(basename(path));
      try {
        symlinkSync(target, dir.entry(name));
        return name;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 8) throw err;
      }
    }
  });
}

/** The directory pinned, `make` puts the new entry under a temporary name, renamed over `path`'s; errors name `path`. */
function replaceEntry(path: string, opts: WriteOptions, make: (dir: PinnedDir) => string): void {
  const io = opts.io ?? nodeIo;
  let dir: PinnedDir | undefined;
  try {
    dir = openPinnedDir(dirname(path), opts.inside === undefined ? {} : { inside: opts.inside });
    const temp = make(dir);
    try {
      io.renameSync(dir.entry(temp), dir.entry(basename(path)));
    } catch (err) {
      io.rmSync(dir.entry(temp), { force: true });
      throw err;
    }
    if (opts.durable !== false) syncDir(dir, io);
  } catch (err) {
    throw writeError(path, err);
  } finally {
    dir?.close();
  }
}

function writeError(path: string, err: unknown): FencecheckError {
  if (err instanceof UnsafeDirError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new DiskFullError(path, err);
  // Node's message ends with the syscall and its path, here a /proc/self/fd name: the target's path says it better.
  return new FencecheckError('run-file-write', `${path} was not written: ${(err as Error).message.replace(/, \w+ '[^]*$/, '')}`, {
    hint: 'Check that the results directory exists and is writable.',
    exitCode: EXIT.badInput,
    cause: err,
  });
}

/** fsync a directory so a rename in it is durable; some file systems refuse, which changes nothing we can act on. */
function syncDir(dir: PinnedDir, io: WriteIo): void {
  try {
    io.fsyncSync(dir.fd);
  } catch {
    // e.g. EISDIR/EINVAL on file systems without directory fsync: the rename is done, only its durability is weaker.
  }
}
