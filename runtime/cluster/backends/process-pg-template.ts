/**
 * Where PostgreSQL's initdb template lives: one per fencecheck process, not
 * one per cluster. Every cluster has a PostgreSQL resource, and a command that
 * starts many (compare switching backends, a hunt restarting after a kill, two
 * lanes at once) ran initdb for each: 2-3.5 s of every backend switch on this
 * 2-core machine, the longest part of it (etcd was ready in 0.3 s, its
 * PostgreSQL in 2.9 s). A copy of a template made once in the process takes a
 * tenth of that.
 *
 * Why per process and not machine-wide: a cache that outlives the command is a
 * leftover. The template's folder is named from its process (pid and start
 * time, so a reused pid is not mistaken for it) with a random tail (made with
 * exclusive create: nothing planted at a guessed name is followed); it is
 * removed when the process ends (`exit`, or after a signal's teardown), and
 * what a SIGKILL leaves is removed by the next cluster start or `down`
 * (removeOrphanedPgTemplates): its owner is no longer running.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atProcessEnd } from '../../hosts/process-end.js';
import { isRunning, ownIdentity } from '../../hosts/process-info.js';
import { fastDataBase } from '../../hosts/paths.js';

const PREFIX = 'fencecheck-pgtemplate-';

let folder: string | undefined;

/** This process's template path (its folder made on first call; the template inside is made by the first PostgreSQL node). */
export function processPgTemplate(): string {
  if (folder === undefined) {
    const me = ownIdentity();
    // Beside the PostgreSQL data dirs it is copied into (the namespaces provider's: containers use no template).
    folder = mkdtempSync(join(fastDataBase(), `${PREFIX}${me.pid}-${me.startTime}-`));
    // The postgres user copies from it (postgres-template.ts) and must traverse the folder.
    chmodSync(folder, 0o755);
    atProcessEnd(removeProcessPgTemplate);
  }
  return join(folder, 'pg-initdb-template');
}

/** This process's template removed (idempotent; nothing when it made none). */
export function removeProcessPgTemplate(): void {
  if (folder === undefined) return;
  rmSync(folder, { recursive: true, force: true });
  folder = undefined;
}

/** The owner a template folder's name records, or undefined for a name that is not one (pure). */
export function templateOwner(name: string): { pid: number; startTime: number } | undefined {
  const m = new RegExp(`^${PREFIX}(\\d+)-(\\d+)-[A-Za-z0-9]+$`).exec(name);
  return m ? { pid: Number(m[1]), startTime: Number(m[2]) } : undefined;
}

/** Template folders among `names` whose owner no longer runs (pure: `running` says whether one does). */
export function orphanedTemplates(names: readonly string[], running: (owner: { pid: number; startTime: number }) => boolean): string[] {
  return names.filter((n) => {
    const owner = templateOwner(n);
    return owner !== undefined && !running(owner);
  });
}

/** The templates of processes that ended without removing theirs (a SIGKILL) removed, in `dirs`; their paths. */
export function removeOrphanedPgTemplates(dirs: readonly string[] = [...new Set([fastDataBase(), tmpdir()])]): string[] {
  const gone = dirs.flatMap((dir) => orphanedTemplates(readdirSync(dir), isRunning).map((n) => join(dir, n)));
  for (const path of gone) rmSync(path, { recursive: true, force: true });
  return gone;
}
