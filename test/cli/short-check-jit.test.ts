/**
 * The V8 tuning of a short check (src/cli/short-check-jit.ts): only where
 * allowed, only for small inputs. In a child process each: V8's flags are the
 * whole process's, and the test runner's must stay as they are.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';

const MODULE = join(projectRoot(), 'dist', 'src', 'cli', 'short-check-jit.js');

/** What tuneJitForCheck(bytes) says in a fresh process, after allowJitTuning() when `allow`. */
function tunes(bytes: number, allow: boolean): string {
  const script = `import(${JSON.stringify(MODULE)}).then((m) => { ${allow ? 'm.allowJitTuning();' : ''} process.stdout.write(String(m.tuneJitForCheck(${bytes}))); })`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
}

describe('tuning V8 for a short check', () => {
  it('tunes a short check where allowed', () => {
    expect(tunes(720_190, true)).toBe('true');
  });

  it('leaves V8 alone where not allowed (a test, the code-cache training run), or for a long check', () => {
    expect(tunes(720_190, false)).toBe('false');
    expect(tunes(8 * 2 ** 20, true)).toBe('false');
  });
});
