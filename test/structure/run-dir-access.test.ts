/**
 * The store owns the run directory: outside runtime/store, no command opens,
 * stats or lists a run's files itself (it asks run-dir-entries.ts, the readers
 * or the writers), so a link, a missing file or a file outside the directory is
 * judged the same way by every command. Touching a file is importing node:fs,
 * the store's own primitives (atomic writes, confinement, bounded reads: a
 * command that writes report.html through writeFileAtomic goes round the store
 * as surely as one that calls writeFileSync) or src/history's readers. Five
 * callers stay on purpose: `serve` opens what it serves with its own
 * confinement (every request re-checked); compare's input walk and the
 * index's (list-runs.ts) list directories to find run directories in;
 * read-run-dir.ts is the report's reader of a run, a reader like the store's
 * own; read-run-history.ts reads a run's history with the store's confinement,
 * in src/ because the history's parser is src/history's (runtime may not import it).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ALLOWED = new Set([
  'src/report/serve-results.ts',
  'src/compare/find-compare-inputs.ts',
  'src/report/list-runs.ts',
  'src/report/read-run-dir.ts',
  'src/history/read-run-history.ts',
]);
const FS_IMPORT =
  /^import .* from '(node:fs(\/promises)?|[./]*runtime\/store\/(atomic-write|confined-path|read-bounded-file|pinned-dir)\.js|[./]*(src\/)?history\/(read-history|read-chunks)\.js|\.\/(read-history|read-chunks)\.js)';$/m;
const RUN_FILE_NAMES = /\b(RUN_FILES|LOGS_DIR|HISTORY_FILE|LATEST_LINK|SHRUNK_FILE|TEST_FILE|PLAN_FILE|RESULTS_FILE)\b/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The files that both touch the file system and name a run's files. */
export function runDirAccessors(files: readonly { path: string; text: string }[]): string[] {
  return files.filter((f) => FS_IMPORT.test(f.text) && RUN_FILE_NAMES.test(f.text)).map((f) => f.path);
}

describe('run-directory access', () => {
  it('goes through the store everywhere in src/ but serve, the two directory walks, the report reader and the history reader', () => {
    const files = tsFiles('src').map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(runDirAccessors(files).filter((p) => !ALLOWED.has(p))).toEqual([]);
  });

  it('would catch a command that stats a run file itself', () => {
    const text = "import { existsSync } from 'node:fs';\nconst has = existsSync(join(dir, RUN_FILES.report));\n";
    expect(runDirAccessors([{ path: 'src/x.ts', text }])).toEqual(['src/x.ts']);
    expect(runDirAccessors([{ path: 'src/y.ts', text: text.replace("import { existsSync } from 'node:fs';\n", '') }])).toEqual([]);
  });

  it("would catch a command that writes a run file through the store's primitives, or reads a history itself", () => {
    const write = "import { writeFileAtomic } from '../../runtime/store/atomic-write.js';\nwriteFileAtomic(join(dir, SHRUNK_FILE), text);\n";
    const read = "import { readHistory } from '../history/read-history.js';\nawait readHistory(join(dir, HISTORY_FILE));\n";
    expect(
      runDirAccessors([
        { path: 'src/h/w.ts', text: write },
        { path: 'src/h/r.ts', text: read },
      ]),
    ).toEqual(['src/h/w.ts', 'src/h/r.ts']);
  });
});
