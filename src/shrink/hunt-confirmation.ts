/**
 * The hunt's re-runs of the find a shrink starts from. A hunt confirms a find
 * before it reports it (src/hunt/confirm-find.ts: the same plan re-run, each
 * re-run counted only when it fails the way the find did) and prints
 * `fencecheck shrink RUN_DIR` for it. Those re-runs are the measurement the
 * shrink's first step would make again, so the shrink goes on from them, as
 * it does when the hunt shrinks its own find (runShrink's `originalRuns`),
 * instead of re-running the original plan before its first candidate.
 *
 * Found by the hunt's layout, HUNT/try-NNN/STAMP, and held to it: the
 * hunt.json two levels up must name RUN_DIR as one of its tries' runs, with
 * counts that make sense. Anything else (a run of `fencecheck run`, a
 * confirmation's own run, a hunt.json that cannot be read) leaves the shrink
 * to measure the original itself, saying why when a hunt.json was there.
 */
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readRunFile } from '../../runtime/store/read-run-files.js';
import { parseStrictJson } from '../../core/history/strict-json.js';
import { isObject } from '../../core/run-files/run-file-error.js';
import type { Tally } from '../hunt/sequential-decision.js';

export const HUNT_FILE = 'hunt.json';

/** The hunt's re-runs of its find: failed `fails` of `of`, the first that failed. */
export type HuntConfirmation = Tally & { failingRun: string | null };

/** What the hunt's file says about `runDir`, and the file; null when `runDir` is not a hunt's try. */
export function huntConfirmationOf(runDir: string, log: (line: string) => void): { runs: HuntConfirmation; from: string } | null {
  // Through links to the run, as the file system has it: the hunt that wrote it is two levels above.
  const mine = samePath(runDir);
  const huntDir = dirname(dirname(mine));
  let file: { text: string; path: string } | null;
  try {
    file = readRunFile(huntDir, HUNT_FILE);
  } catch (err) {
    log(`shrink: ${resolve(huntDir, HUNT_FILE)} not read (${(err as Error).message}): the original plan is re-run`);
    return null;
  }
  if (file === null) return null;
  let doc: unknown;
  try {
    doc = parseStrictJson(file.text);
  } catch (err) {
    log(`shrink: ${file.path} is not JSON (${(err as Error).message}): the original plan is re-run`);
    return null;
  }
  const tries = isObject(doc) && Array.isArray(doc['tries']) ? (doc['tries'] as unknown[]) : null;
  if (tries === null) return null;
  const record = tries.find((t) => isObject(t) && typeof t['runDir'] === 'string' && samePath(t['runDir']) === mine);
  if (!isObject(record) || record['reproduced'] === undefined) return null;
  const runs = confirmationOf(record['reproduced']);
  if (runs === null) {
    log(`shrink: ${file.path}: this try's re-runs do not read as counts (${JSON.stringify(record['reproduced'])}): the original plan is re-run`);
    return null;
  }
  return { runs, from: file.path };
}

/** A tally as hunt.json records it, checked: whole counts, fails ≤ of, a failing run named when one failed. */
export function confirmationOf(v: unknown): HuntConfirmation | null {
  if (!isObject(v)) return null;
  const { fails, of, failingRun } = v;
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (!count(fails) || !count(of) || fails > of) return null;
  if (failingRun !== null && typeof failingRun !== 'string') return null;
  if (fails > 0 && failingRun === null) return null;
  return { fails, of, failingRun };
}

/** A path as the file system resolves it (links followed), or as written when it does not exist. */
function samePath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}
