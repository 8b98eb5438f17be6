/**
 * openPinnedDir: the directory a file is written into, opened once and named
 * through its descriptor from then on, and the one place where fencecheck
 * creates a file (createExclusive): every writer (atomic-write.ts, the
 * `latest` link, the writable-directory probe) goes through here.
 *
 * Why: fencecheck usually runs as root, in directories other users may write
 * (a shared results directory, a run directory copied from a CI artifact).
 * Whoever can write a directory can plant a symbolic link at a name fencecheck
 * is about to use; a root process that opens that name for writing follows the
 * link and overwrites any file on the machine.
 *
 * What this guarantees (Linux, /proc mounted):
 * - A file is only ever created new: O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY,
 *   under a name with 96 random bits. A link or file planted at any name,
 *   predictable or not, is never opened, followed or truncated; a name taken
 *   meanwhile is retried under another.
 * - The directory is resolved once (realpath: the links of the path the user
 *   gave, `results/<test>/latest`, are followed at that moment), opened at its
 *   real path with O_DIRECTORY | O_NOFOLLOW, and /proc/self/fd/N must then read
 *   back that same path: the directory opened is the one the real path names,
 *   with no link in it. Every later name is `/proc/self/fd/N/<name>`, which the
 *   kernel resolves from the open descriptor (openat in effect): a component of
 *   the path swapped for a link afterwards cannot move the write elsewhere.
 * - `inside`: the directory's real path must be under that directory's real
 *   path (the results directory of `report --index` and `serve`, whose run
 *   directories were found by a walk that someone could change since).
 *
 * What it cannot guarantee: which directory a path names when someone else may
 * rename the directories above it before it is opened (the write then lands in
 * the directory the path named at that moment, within `inside` when given);
 * nor that a file stays as written in a directory others can write (they can
 * always remove or replace it: that is what writing a directory means).
 * Without /proc (not Linux, or a sandbox without it) the same checks are made
 * at the open but names are joined to the real path: a swap after the open
 * could still redirect them, and the module says so here rather than refuse.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { isInside, openedPath, realDir } from './confined-path.js';

export interface PinnedDir {
  /** The directory's real path, as /proc/self/fd read it back. */
  readonly real: string;
  readonly fd: number;
  /** The path of `name` in this directory, resolved from the descriptor (not from the path given). */
  entry(name: string): string;
  close(): void;
}

/** A directory fencecheck will not write into: a link where a directory must be, moved while opened, or outside `inside`. */
export class UnsafeDirError extends FencecheckError {
  constructor(
    readonly dir: string,
    why: string,
    cause?: unknown,
  ) {
    super('unsafe-dir', `${dir}: ${why}; nothing was written`, {
      hint: 'Give fencecheck a directory it alone can change (a shared, writable one lets others plant links); check that the path is the run or results directory you meant.',
      exitCode: EXIT.badInput,
      cause,
    });
  }
}

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** The only way a file is created: new, never through a link, write-only. */
export const CREATE_EXCLUSIVE = constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_WRONLY;

/** Throws UnsafeDirError for a directory that changed while opened or leads outside `inside`; an errno error (ENOENT, ENOTDIR) as it came. */
export function openPinnedDir(dir: string, opts: { inside?: string } = {}): PinnedDir {
  const real = realpathSync(dir);
  let fd: number;
  try {
    fd = openSync(real, DIR_FLAGS);
  } catch (err) {
    // O_NOFOLLOW met a link where realpath found a directory a moment ago.
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new UnsafeDirError(dir, `changed while it was opened (${real} became a link)`, err);
    throw err;
  }
  const seen = openedPath(fd);
  try {
    // Renamed, or a component swapped for a link, between realpath and open: not the directory resolved.
    if (seen === null ? !sameDir(fd, real) : seen !== real)
      throw new UnsafeDirError(dir, `changed while it was opened (${real}${seen === null ? '' : ` became ${seen}`})`);
    if (opts.inside !== undefined && !isInside(realDir(opts.inside), real)) throw new UnsafeDirError(dir, `leads outside ${opts.inside} (to ${real})`);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return {
    real,
    fd,
    entry: (name) => (seen === null ? join(real, name) : `/proc/self/fd/${fd}/${name}`),
    close: () => closeSync(fd),
  };
}

/**
 * Create a new file `.<base>.<random>.tmp` in the directory; its descriptor and name. `open` is injectable
 * (a test fills the disk); a name already taken (EEXIST: planted, or a one-in-2^96 clash) is retried under a new one.
 */
export function createExclusive(
  dir: PinnedDir,
  base: string,
  open: (path: string, flags: number, mode: number) => number = openSync,
): { fd: number; name: string } {
  for (let attempt = 1; ; attempt++) {
    const name = tempName(base);
    try {
      return { fd: open(dir.entry(name), CREATE_EXCLUSIVE, 0o644), name };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 8) throw err;
    }
  }
}

/** An unpredictable name beside `base`, hidden (a leading dot) so listings and globs skip it. */
export function tempName(base: string): string {
  return `.${base}.${randomBytes(12).toString('hex')}.tmp`;
}

function sameDir(fd: number, path: string): boolean {
  const a = fstatSync(fd);
  const b = lstatSync(path, { throwIfNoEntry: false });
  return b !== undefined && b.isDirectory() && a.dev === b.dev && a.ino === b.ino;
}
