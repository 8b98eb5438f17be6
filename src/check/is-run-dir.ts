/**
 * isRunDir: is this path a run directory (test.json and history.jsonl)? Its
 * own file so `fencecheck check FILE` can ask without loading the run store
 * and the lock checkers that re-check a run directory (run-files.ts imports
 * nothing).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_FILES } from '../../core/run-files/run-files.js';

export function isRunDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && existsSync(join(path, RUN_FILES.test)) && existsSync(join(path, RUN_FILES.history));
}
