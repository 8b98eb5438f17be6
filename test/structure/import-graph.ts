/**
 * The project's import graph, read from the sources with TypeScript's own
 * pre-processor (ts.preProcessFile: static imports and exports, `import type`,
 * dynamic `import()`), and the two rules the layout keeps (imports.test.ts):
 *
 * - layers: a file under a top folder imports only the folders its layer allows
 *   (core/ nothing outside itself, no packages and no Node built-ins either);
 * - no folder cycle: at every depth, the folders under one parent import each
 *   other without a cycle. A folder together with its subfolders counts as one
 *   (a parent and its own subfolder may import each other: that is inside one
 *   module); siblings, and whole top folders, may not go round in a circle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

export interface Import {
  /** The importing file, repo-relative. */
  from: string;
  /** The specifier as written. */
  spec: string;
  /** The repo-relative file a relative specifier names (`.js` read as `.ts`); undefined for packages and built-ins. */
  to?: string;
}

/** The specifiers one source text imports (also `export … from`, `import type`, `import()`). */
export function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The import of `spec` from `from`, its target resolved when relative. */
export function resolveImport(from: string, spec: string): Import {
  if (!spec.startsWith('.')) return { from, spec };
  const to = normalize(join(dirname(from), spec))
    .replace(/\\/g, '/')
    .replace(/\.js$/, '.ts')
    .replace(/\.mjs$/, '.mts');
  // A relative path into node_modules (a package's own types) is a package import.
  return to.startsWith('node_modules/') ? { from, spec } : { from, spec, to };
}

/** Every .ts/.mts file under `dirs` (repo-relative, below `root`), the report page's browser scripts left out. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        // src/report/page is browser code with its own tsconfig; it imports nothing of the project.
        if (e.name !== 'node_modules' && p !== 'src/report/page') walk(p);
      } else if (/\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

export function importsOf(root: string, files: readonly string[]): Import[] {
  return files.flatMap((f) => specifiersOf(readFileSync(join(root, f), 'utf8')).map((s) => resolveImport(f, s)));
}

/** Imports that break a layer rule: `allowed[top]` is what files under top folder `top` may import. */
export function layerViolations(imports: readonly Import[], allowed: Readonly<Record<string, readonly string[]>>, packagesIn: readonly string[]): Import[] {
  return imports.filter((i) => {
    const top = i.from.split('/')[0]!;
    const may = allowed[top];
    if (may === undefined) return false;
    if (i.to === undefined) return !packagesIn.includes(top);
    return !may.includes(i.to.split('/')[0]!);
  });
}

/** The folder a file counts in at `depth` (its first `depth` directory names), or null when it sits higher up. */
function folderAt(file: string, depth: number): string | null {
  const parts = dirname(file).split('/');
  return parts.length >= depth ? parts.slice(0, depth).join('/') : null;
}

export interface FolderCycle {
  depth: number;
  folders: string[];
  /** One file import per folder edge inside the cycle, as evidence. */
  edges: string[];
}

/** The cyclic groups (strongly connected components of two or more folders) at every depth from 1 to `maxDepth`. */
export function folderCycles(imports: readonly Import[], maxDepth: number): FolderCycle[] {
  const cycles: FolderCycle[] = [];
  for (let depth = 1; depth <= maxDepth; depth++) {
    const graph = new Map<string, Map<string, string>>();
    for (const i of imports) {
      if (i.to === undefined) continue;
      const a = folderAt(i.from, depth);
      const b = folderAt(i.to, depth);
      if (a === null || b === null || a === b) continue;
      if (!graph.has(a)) graph.set(a, new Map());
      if (!graph.get(a)!.has(b)) graph.get(a)!.set(b, `${i.from} -> ${i.to}`);
    }
    for (const group of stronglyConnected(graph)) {
      const inGroup = new Set(group);
      const edges = group.flatMap((a) => [...(graph.get(a) ?? [])].filter(([b]) => inGroup.has(b)).map(([, e]) => e));
      cycles.push({ depth, folders: group.sort(), edges: edges.sort() });
    }
  }
  return cycles;
}

/** The circles of file imports among the files under `prefix` (static, type-only and dynamic imports alike): each a sorted list of files. */
export function fileCycles(imports: readonly Import[], prefix: string): string[][] {
  const graph = new Map<string, Map<string, string>>();
  for (const i of imports) {
    if (i.to === undefined || !i.from.startsWith(prefix) || !i.to.startsWith(prefix) || i.from === i.to) continue;
    if (!graph.has(i.from)) graph.set(i.from, new Map());
    graph.get(i.from)!.set(i.to, i.spec);
  }
  return stronglyConnected(graph).map((group) => group.sort());
}

/** Tarjan's algorithm; only the components with more than one node. */
function stronglyConnected(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const nodes = new Set<string>([...graph.keys(), ...[...graph.values()].flatMap((m) => [...m.keys()])]);
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) out.push(group);
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** The repository root, from this file (test/structure/). */
export function repoRoot(here: string): string {
  return relative(process.cwd(), join(dirname(here), '..', '..')) || '.';
}
