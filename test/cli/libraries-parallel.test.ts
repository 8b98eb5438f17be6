/**
 * `npm run libraries -- --parallel N` (issue 30): the maintainer's entry passes N to each part's
 * `fencecheck compare` (and to its hunts and shrinks), whose runs then go N at once in slots; out of
 * range is a 254 before anything runs. Checked on the built entry with --dry-run, which prints the
 * compare command and runs nothing (no cluster, no root).
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { EXIT } from '../../core/errors.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { spawnSync } from 'node:child_process';

const LIBRARIES = fileURLToPath(new URL('../../dist/src/cli/libraries-main.js', import.meta.url));
/** The entry's exit code and both streams (run-cli.ts keeps stderr only on failure; the commands go to stderr). */
function libraries(args: string[]): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [LIBRARIES, ...args], { encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}
const tiny = (dir: string): string[] => ['--cluster', 'redis', '--only', 'redis-py', '--seeds', '1', '--dry-run', '--out', dir, '--doc', `${dir}/libraries.md`];

describe('npm run libraries --parallel', () => {
  it("passes --parallel N to the part's compare command, and leaves compare's own default without it", () => {
    const withIt = libraries([...tiny(madeTempDir('fc-lib-')), '--parallel', '2']);
    expect(withIt.code).toBe(0);
    expect(withIt.stderr).toMatch(/\$ fencecheck compare --backends redis --lock-clients redis-py .* --parallel 2 --out /);
    const without = libraries(tiny(madeTempDir('fc-lib-')));
    expect(without.code).toBe(0);
    expect(without.stderr).toMatch(/\$ fencecheck compare --backends redis /);
    expect(without.stderr).not.toMatch(/--parallel/);
  });

  it.each(['0', '9', 'two'])('refuses --parallel %s with 254 before anything runs', (n) => {
    const r = libraries([...tiny(madeTempDir('fc-lib-')), '--parallel', n]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr).toMatch(/--parallel/);
    expect(r.stderr).not.toMatch(/\$ fencecheck compare/);
  });
});
