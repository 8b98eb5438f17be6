/**
 * `npm run libraries -- --parallel N` (issue 30): the maintainer's entry passes N to each part's
 * `fencecheck compare` (and to its hunts and shrinks), whose runs then go N at once in slots; out of
 * range is a 254 before anything runs. `--until-ruled-out P --weigh-budget D` (a safe cell's weighing
 * hunt's share and budget) are checked before any part runs too, as the hunt itself would check them.
 * Checked on the built entry with --dry-run, which prints the compare command and runs nothing (no
 * cluster, no root); the weighing hunts' commands are checked on paper in test/compare/libraries-hunt.test.ts.
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

describe('npm run libraries --until-ruled-out', () => {
  it('takes a share and a budget as the hunt does', () => {
    const r = libraries([...tiny(madeTempDir('fc-lib-')), '--until-ruled-out', '10', '--weigh-budget', '150s']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\$ fencecheck compare --backends redis /);
  });

  it('refuses --weigh-budget without --until-ruled-out (it would weigh nothing)', () => {
    const r = libraries([...tiny(madeTempDir('fc-lib-')), '--weigh-budget', '3m']);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr).toContain('Expected `--weigh-budget` with `--until-ruled-out`');
    expect(r.stderr).not.toMatch(/\$ fencecheck compare/);
  });

  it.each([
    ['--until-ruled-out', '0'],
    ['--until-ruled-out', '96'],
    ['--until-ruled-out', 'ten'],
    ['--weigh-budget', '0.5s'],
    ['--weigh-budget', '200h'],
    ['--weigh-budget', '3 m'],
  ])('refuses %s %s with 254 naming the flag, before anything runs', (flag, value) => {
    const r = libraries([...tiny(madeTempDir('fc-lib-')), ...(flag === '--until-ruled-out' ? [] : ['--until-ruled-out', '10']), flag, value]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr).toContain(flag);
    expect(r.stderr).not.toMatch(/\$ fencecheck compare/);
  });
});
