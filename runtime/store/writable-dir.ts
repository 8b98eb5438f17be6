/**
 * ensureWritableDir: the directory a command will write into (`run --results`,
 * `compare --out`, `scenario run --out`, `client-check --results`, `up
 * --run-dir`) made and proved writable before anything starts, so a bad one
 * is a 254 naming the flag instead of a failure after a cluster came up.
 *
 * Each missing component is made with a plain mkdir, one at a time, and never
 * with `mkdirSync(path, { recursive: true })`: Node's recursive mkdir retries
 * ENOENT from a parent it just found present, so under /proc (where mkdir
 * always says ENOENT) it loops forever at full CPU. A probe file written and
 * removed then shows the directory takes files (a read-only mount, /sys, a
 * directory without write permission for this user); it is created as every
 * file is (pinned-dir.ts), so a link planted at its name is never followed.
 */
import { closeSync, mkdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { createExclusive, openPinnedDir } from './pinned-dir.js';

/** The absolute directory, made if missing; a UsageError (254) naming `what` (the flag, quoted: "`--results`") when it cannot hold files. */
export function ensureWritableDir(path: string, what: string): string {
  const dir = resolve(path);
  for (const missing of missingDirs(dir, path, what)) makeOne(missing, path, what);
  try {
    probeFiles(dir);
  } catch (err) {
    throw refusal(path, what, `a writable directory`, `${dir} takes no files (${codeOf(err)})`);
  }
  return dir;
}

/** A probe file created (exclusively, under a random name: pinned-dir.ts, never through a planted link) and removed. */
function probeFiles(dir: string): void {
  const pinned = openPinnedDir(dir);
  try {
    const { fd, name } = createExclusive(pinned, 'fencecheck-probe');
    closeSync(fd);
    rmSync(pinned.entry(name), { force: true });
  } finally {
    pinned.close();
  }
}

/**
 * The same refusals, leaving nothing behind (a dry run writes nothing): the first missing directory
 * is made and removed again, or an existing one takes a probe file.
 */
export function assertCreatableDir(path: string, what: string): string {
  const dir = resolve(path);
  const first = missingDirs(dir, path, what)[0];
  if (first === undefined) return ensureWritableDir(path, what);
  makeOne(first, path, what);
  rmdirSync(first);
  return dir;
}

/** The missing directories from the outermost in; a file on the way is refused. */
function missingDirs(dir: string, given: string, what: string): string[] {
  const missing: string[] = [];
  for (let p = dir; ; p = dirname(p)) {
    try {
      if (statSync(p).isDirectory()) return missing;
      throw refusal(given, what, 'a directory (new or existing)', `${p} is a file`);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      if (codeOf(err) !== 'ENOENT' || dirname(p) === p) throw refusal(given, what, 'a directory fencecheck can reach', `${p}: ${codeOf(err)}`);
      missing.unshift(p);
    }
  }
}

function makeOne(dir: string, given: string, what: string): void {
  try {
    mkdirSync(dir);
  } catch (err) {
    // Another process made it meanwhile: as good as made here.
    if (codeOf(err) === 'EEXIST' && statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true) return;
    throw refusal(given, what, 'a directory fencecheck can create', `mkdir ${dir}: ${codeOf(err)}`);
  }
}

function refusal(given: string, what: string, expected: string, why: string): UsageError {
  return new UsageError(
    `Expected ${what} to name ${expected}, got \`${given}\` (${why})`,
    `Give ${what} a directory on a writable disk (the default is under ./results).`,
  );
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
}
