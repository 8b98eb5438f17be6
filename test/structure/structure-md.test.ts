/**
 * STRUCTURE.md has one line per tracked file (root files aside), `path — what it is`, and no line for a file
 * that is gone: the map a newcomer reads stays the repository's. Reads `git ls-files` (skipped, saying so,
 * outside a git checkout).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';

const root = projectRoot();
const tracked = ((): string[] | undefined => {
  try {
    return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.includes('/'));
  } catch {
    return undefined;
  }
})();
if (tracked === undefined) console.log('!!! SKIPPING the STRUCTURE.md check: not a git checkout (git ls-files failed) !!!');

/** The paths STRUCTURE.md describes: every `path — …` line (pure). */
export function describedPaths(text: string): string[] {
  return text.split('\n').flatMap((l) => {
    const m = /^([^\s|#`][^\s]*) — \S/.exec(l);
    return m ? [m[1]!] : [];
  });
}

describe.skipIf(tracked === undefined)('STRUCTURE.md', () => {
  const described = describedPaths(readFileSync(join(root, 'STRUCTURE.md'), 'utf8'));

  it('describes every tracked file, once', () => {
    const missing = tracked!.filter((f) => !described.includes(f));
    expect(missing, 'tracked files without their line in STRUCTURE.md').toEqual([]);
    const twice = described.filter((p, i) => described.indexOf(p) !== i);
    expect(twice).toEqual([]);
  });

  it('describes no file that is gone', () => {
    expect(described.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });
});

describe('describedPaths', () => {
  it('reads `path — what` lines and nothing else', () => {
    expect(describedPaths('# Title\n\na/b.ts — does x\nnot a line\n| a | b |\nc/d.md — doc\n')).toEqual(['a/b.ts', 'c/d.md']);
  });
});
