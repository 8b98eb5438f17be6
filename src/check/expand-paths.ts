/**
 * Turns the paths a user gives `fencecheck check` into history files: a file
 * stands for itself; a directory stands for every history file below it
 * (sorted, so output order is stable).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';

/** File endings that hold histories in the formats we import. */
const HISTORY_ENDINGS = ['.jsonl', '.edn', '.log', '.txt'];

export async function expandHistoryPaths(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) {
      throw new UsageError(`Expected a history file or directory, got \`${path}\`, which does not exist`, 'Check the path.');
    }
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    const found = await historiesBelow(path);
    if (found.length === 0) {
      throw new UsageError(
        `Expected history files in the directory \`${path}\`, found none (${HISTORY_ENDINGS.join(', ')})`,
        'Name the files, or pass the directory that holds them.',
      );
    }
    files.push(...found);
  }
  return files;
}

async function historiesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && HISTORY_ENDINGS.some((end) => e.name.endsWith(end)) && e.name !== 'README.md')
    .map((e) => join(e.parentPath ?? dir, e.name))
    .sort();
}
