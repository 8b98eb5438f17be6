/**
 * The probes of a run directory's entries that callers outside the store
 * make (is this a run directory, does it hold a report, a shrunk mark, a
 * history; the client logs' text), in the store like its readers and
 * writers, so every command asks the same way: a link is the store's to
 * judge, not each caller's. Imports only node:fs and the run-file names, so
 * `fencecheck check FILE` can ask "is this a run directory?" without loading
 * a reader.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_FILES } from '../../core/run-files/run-files.js';

export type RunFileKey = keyof typeof RUN_FILES;

/** A run directory: a directory holding test.json and history.jsonl. */
export function isRunDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && existsSync(join(path, RUN_FILES.test)) && existsSync(join(path, RUN_FILES.history));
}

/** Whether the run holds this file to read (a link is followed: a link to nothing is no file). */
export function hasRunFile(dir: string, key: RunFileKey): boolean {
  return existsSync(join(dir, RUN_FILES[key]));
}

/** Whether an entry of this name is there at all (a link counts and is not followed: a reader refuses it, with its reason). */
export function hasRunEntry(dir: string, key: RunFileKey): boolean {
  return lstatSync(join(dir, RUN_FILES[key]), { throwIfNoEntry: false }) !== undefined;
}

/** The client processes' logs (logs/client<N>-<pid>.log, named by runtime/runner/real-world.ts), in name order; none without a logs folder. */
export function readClientLogs(dir: string): { name: string; text: string }[] {
  const logs = join(dir, RUN_FILES.logs);
  let names: string[];
  try {
    names = readdirSync(logs);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^client\d+-\d+\.log$/.test(n))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(logs, name), 'utf8') }));
}
