/**
 * A fresh PostgreSQL data dir without running initdb for every node: initdb
 * once into the process's template (process-pg-template.ts, namespaces
 * provider), then a copy of it for each PostgreSQL node. initdb took 1-2.5 s
 * of a fresh start on this 2-core machine; a copy takes a tenth of that. The
 * copy is what initdb would write again (the same program and arguments), so a
 * node from it is as fresh as one from initdb; only the system identifier is
 * shared, which nothing here reads.
 *
 * The template lives as long as the process that made it, for every cluster it
 * starts (process-pg-template.ts says where and how it goes). It is made under
 * a temporary name and renamed into place, so a half-made one is never copied
 * (a leftover `.tmp-*` is replaced). A making that fails in one cluster (torn
 * down mid-initdb) is tried again by another that was waiting for it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

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
  for (let waited = false; !existsSync(join(template, 'PG_VERSION')); waited = true) {
    let made = making.get(template);
    const ours = made === undefined;
    if (made === undefined) {
      made = makeTemplate(template, io).finally(() => making.delete(template));
      making.set(template, made);
    }
    try {
      await made;
      if (ours) break;
    } catch (err) {
      // Another cluster's making failed (its cluster torn down mid-initdb): this one makes it once itself.
      if (ours || waited) throw err;
    }
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
  await Promise.all(
    readdirSync(parent)
      .filter((f) => f.startsWith(`${base}.tmp-`))
      .map((f) => rm(join(parent, f), { recursive: true, force: true })),
  );
  const partial = `${template}.tmp-${process.pid}`;
  await mkdir(partial, { mode: 0o700 });
  await io.chown(partial);
  await io.initdb(partial);
  await rm(template, { recursive: true, force: true });
  await rename(partial, template);
}
