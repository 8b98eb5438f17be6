/**
 * isRunDir: is this path a run directory (test.json and history.jsonl)? Its
 * own file so `fencecheck check FILE` can ask without loading the lock
 * checkers that re-check a run directory.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function isRunDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && existsSync(join(path, 'test.json')) && existsSync(join(path, 'history.jsonl'));
}
