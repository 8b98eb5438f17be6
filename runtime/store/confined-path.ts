/**
 * The rule every reader of a run follows: a run's file is read only when it
 * really is inside its run directory. A run file that is a symbolic link out
 * of it (test.json -> /etc/passwd, history.jsonl -> another user's run) is
 * refused with LinkedOutsideError, which names the link and where it leads and
 * quotes nothing of what is there. `report`, `report --index`, `check RUN_DIR`,
 * `compare --merge` and `serve` all read through the store's readers
 * (read-run-files.ts) and the run history reader (src/check/verify-run.ts),
 * which apply it here.
 *
 * Why: fencecheck often runs as root, and a run directory is input (copied
 * from CI, shared, written by another user). A link in it would let whoever
 * wrote it make fencecheck read any file and embed it in a report, or quote
 * its first characters in a parse error.
 *
 * The check is made twice: on the real path before opening (so nothing outside
 * is even opened: opening some devices has effects), and on the opened
 * descriptor through /proc/self/fd (so a link swapped in between is caught:
 * what counts is the file really opened). A hard link has no "outside": one in
 * the run directory reads as the run's (Linux's fs.protected_hardlinks, on by
 * default, stops a user from linking a file they could not read themselves).
 */
import { closeSync, constants, openSync, readlinkSync, realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { EXIT, FencecheckError } from '../../core/errors.js';

/** A run file whose real path is outside the directory it belongs to: not read. Exit 254. */
export class LinkedOutsideError extends FencecheckError {
  constructor(
    readonly path: string,
    /** Where it really leads (its real path). */
    readonly target: string,
    readonly root: string,
    what: string,
  ) {
    super('linked-outside', `${path} is a link to ${target}, outside ${what} (${root}): not read`, {
      hint: 'A run is read only from inside its own directory. If the file belongs to the run, copy it into the directory in place of the link.',
      exitCode: EXIT.badInput,
    });
  }
}

/** The directory a run's files must really be in: `dir` with its own links followed (`latest`), once. */
export function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Throws LinkedOutsideError when `path` really is outside `root` (a real path); a missing path passes: its reader says so. */
export function assertInside(path: string, root: string, what = 'its run directory'): void {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return;
  }
  if (!isInside(root, real)) throw new LinkedOutsideError(path, real, root, what);
}

/** The same for what a descriptor really is, whatever `path` names by now; without /proc the check before opening stands alone. */
export function assertOpenedInside(fd: number, path: string, root: string, what = 'its run directory'): void {
  const real = openedPath(fd);
  if (real !== null && !isInside(root, real)) throw new LinkedOutsideError(path, real, root, what);
}

/** `path` opened for reading (O_NONBLOCK: opening a FIFO returns at once), checked before and after the open. */
export function openInside(path: string, root: string, what = 'its run directory'): number {
  assertInside(path, root, what);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    assertOpenedInside(fd, path, root, what);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/** What /proc/self/fd/N says a descriptor is, or null without /proc. */
export function openedPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}
