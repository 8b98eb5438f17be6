/**
 * A fresh PostgreSQL data dir without running initdb every time: initdb once
 * into a machine-wide template (namespaces provider), then a copy of it for
 * each cluster. initdb took 1-2.5 s of every fresh cluster's start on this
 * 2-core machine (a comparison starts four); a copy takes a tenth of that.
 * The copy is what initdb would write again (the same program, arguments,
 * locale and encoding: the template's name is a hash of them and of the
 * program's size and time), so a cluster from it is as fresh as one from
 * initdb; only the system identifier is shared, which nothing here reads.
 *
 * The template is made under a temporary name and renamed into place, so a
 * harness killed mid-initdb leaves no half template that a later copy would
 * take (a leftover `.tmp-*` is replaced the next time). It lives in the
 * system temp dir (the postgres user must read it), outside every run's
 * recorded data dirs, so no teardown or reclaim removes it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** The template's directory for this initdb and these arguments (pure but for the program's stat). */
export function templateDirFor(initdb: string, args: readonly string[], root = join(tmpdir(), 'fencecheck-cache')): string {
  let stamp = 'unknown';
  try {
    const s = statSync(initdb);
    stamp = `${s.size}-${s.mtimeMs}`;
  } catch {
    // A bare name resolved on the PATH: its arguments still key the template.
  }
  const key = createHash('sha1').update(JSON.stringify([initdb, stamp, ...args])).digest('hex').slice(0, 16);
  return join(root, `pg-initdb-${key}`);
}

export interface TemplateIo {
  /** initdb into `dir` (as the postgres user, on the node's host). */
  initdb(dir: string): Promise<void>;
  /** `dir` made the postgres user's. */
  chown(dir: string): Promise<void>;
  /** The template's files copied into `dir`, modes kept (as the postgres user). */
  copy(template: string, dir: string): Promise<void>;
}

/** Templates being made in this process: two PostgreSQL nodes of one cluster (pg1, pgl1) start at once and share one. */
const making = new Map<string, Promise<void>>();

/** `dir` holds a fresh data dir: copied from the template, made first when there is none. */
export async function initFromTemplate(template: string, dir: string, io: TemplateIo): Promise<void> {
  if (!existsSync(join(template, 'PG_VERSION'))) {
    let made = making.get(template);
    if (made === undefined) {
      made = makeTemplate(template, io).finally(() => making.delete(template));
      making.set(template, made);
    }
    await made;
  }
  await io.copy(template, dir);
}

async function makeTemplate(template: string, io: TemplateIo): Promise<void> {
  const parent = join(template, '..');
  await mkdir(parent, { recursive: true });
  // The postgres user must traverse it whatever the umask.
  await chmod(parent, 0o755);
  // A harness killed mid-initdb left its partial template: removed, whoever made it.
  const base = basename(template);
  await Promise.all(readdirSync(parent).filter((f) => f.startsWith(`${base}.tmp-`)).map((f) => rm(join(parent, f), { recursive: true, force: true })));
  const partial = `${template}.tmp-${process.pid}`;
  await mkdir(partial, { mode: 0o700 });
  await io.chown(partial);
  await io.initdb(partial);
  await rm(template, { recursive: true, force: true });
  await rename(partial, template);
}
