/**
 * The shared half of the name guards (backend-names.test.ts, fault-kind-names.test.ts): a kind's name, as a string
 * literal, may appear in production code (core/, runtime/, src/) only in its own files, the registries that key the
 * kinds by name, and a list of exceptions, each with its reason; an exception that no longer names what it lists is
 * stale. What counts as a name is what `git grep "'name'\|\"name\""` finds, so the counts in a note can be checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PRODUCTION = ['core', 'runtime', 'src'];

export interface NameGuard<N extends string> {
  names: readonly N[];
  /** Whether `file` is one of the name's own files. */
  isOwn(file: string, name: N): boolean;
  /** Files that key every kind by name. */
  registries: readonly string[];
  /** The files that still name a kind, and why. */
  exceptions: Readonly<Record<string, { names: readonly N[]; why: string }>>;
  /** Spellings that are not the name though they read as it (a spec's timeline shade), removed before reading. */
  notNames?: RegExp;
}

/** Every production file's text, by its path from the root. */
export function productionFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else out.set(p, readFileSync(join(root, p), 'utf8'));
    }
  };
  for (const d of PRODUCTION) walk(d);
  return out;
}

/** The names a text spells as a string literal ('name' or "name"). */
export function literalNames<N extends string>(text: string, names: readonly N[]): N[] {
  return names.filter((n) => text.includes(`'${n}'`) || text.includes(`"${n}"`));
}

/** Whether `file` sits directly in one of `folders` and its name starts with one of `stems` (`<stem>.ts`, `<stem>-…`). */
export function inFoldersWithStem(file: string, folders: readonly string[], stems: readonly string[]): boolean {
  const slash = file.lastIndexOf('/');
  const base = file.slice(slash + 1);
  return folders.includes(file.slice(0, slash)) && stems.some((stem) => base === `${stem}.ts` || base.startsWith(`${stem}-`));
}

/** Each `file: name` where a name appears outside its own files, the registries and the exceptions. */
export function strayNames<N extends string>(guard: NameGuard<N>, files: ReadonlyMap<string, string>): string[] {
  const stray: string[] = [];
  for (const [file, text] of files) {
    if (guard.registries.includes(file)) continue;
    for (const name of literalNames(guard.notNames ? text.replace(guard.notNames, '') : text, guard.names)) {
      if (!guard.isOwn(file, name) && !(guard.exceptions[file]?.names.includes(name) ?? false)) stray.push(`${file}: ${name}`);
    }
  }
  return stray;
}

/** Each `file: name` an exception lists that the file no longer names (or a file that is gone). */
export function staleExceptions<N extends string>(guard: NameGuard<N>, files: ReadonlyMap<string, string>): string[] {
  return Object.entries(guard.exceptions).flatMap(([file, e]) => {
    const named = literalNames(files.get(file) ?? '', guard.names);
    return e.names.filter((n) => !named.includes(n)).map((n) => `${file}: ${n}`);
  });
}
