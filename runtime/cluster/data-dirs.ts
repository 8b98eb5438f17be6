/**
 * Which recorded data dirs a reclaim may delete (pure), and deleting them.
 * An all-backend run leaves ~250 MB (etcd preallocates its WAL), PostgreSQL's
 * sits under the system temp dir: both must go whenever a run ends, however
 * it ends. Only `<runDir>/data/<name>` and `<sharedDataDir(runDir)>/<name>` (either base: paths.ts)
 * are ever touched, whatever else a (damaged or edited) state file says; logs
 * are always kept.
 */
import { existsSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { rm, rmdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize } from 'node:path';
import { sharedDataDirs } from '../hosts/paths.js';
import type { ClusterState } from '../hosts/state-file.js';

/** The recorded data dirs that lie where a run puts them (pure). */
export function removableDataDirs(state: Pick<ClusterState, 'runDir' | 'dataDirs'>): string[] {
  if (!isAbsolute(state.runDir)) return [];
  const allowed = [join(state.runDir, 'data'), ...sharedDataDirs(state.runDir)];
  return state.dataDirs.filter((d) => isAbsolute(d) && normalize(d) === d && allowed.includes(dirname(d)));
}

/**
 * The recorded dirs that exist, and beside each the partial copies its maker
 * writes before renaming into place (`<dir>.tmp-<pid>`, postgres-template.ts):
 * a harness killed mid-initdb leaves one, which no record names (seen: the
 * shared data dir left behind by `down` after a SIGKILL at start-up).
 */
function presentDataDirs(state: ClusterState): string[] {
  const recorded = removableDataDirs(state);
  const partials = [...new Set(recorded.map(dirname))].filter(existsSync).flatMap((parent) =>
    readdirSync(parent)
      .filter((f) => recorded.some((d) => dirname(d) === parent && f.startsWith(`${basename(d)}.tmp-`)))
      .map((f) => join(parent, f)),
  );
  return [...recorded.filter((d) => existsSync(d)), ...partials];
}

export async function removeDataDirs(state: ClusterState | undefined): Promise<string[]> {
  if (!state) return [];
  const dirs = presentDataDirs(state);
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  if (isAbsolute(state.runDir)) await Promise.all(sharedDataDirs(state.runDir).map((d) => rmdir(d).catch(() => undefined)));
  return dirs;
}

export function removeDataDirsSync(state: ClusterState | undefined): string[] {
  if (!state) return [];
  const dirs = presentDataDirs(state);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const shared of isAbsolute(state.runDir) ? sharedDataDirs(state.runDir) : []) {
    try {
      rmdirSync(shared);
    } catch {
      // Not empty or already gone.
    }
  }
  return dirs;
}
