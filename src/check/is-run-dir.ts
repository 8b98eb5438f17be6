/**
 * isRunDir: is this path a run directory (test.json and history.jsonl)? Its
 * own file so `fencecheck check FILE` can ask without loading the run store
 * and the lock checkers that re-check a run directory. The names are the run
 * store's TEST_FILE and HISTORY_FILE, spelled here because importing them
 * would load the store's validating readers at start-up.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function isRunDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && existsSync(join(path, 'test.json')) && existsSync(join(path, 'history.jsonl'));
}
