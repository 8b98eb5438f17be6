/**
 * run and compare --dry-run check the shared run options alike (core/plan/run-options.ts): an option
 * no backend reads is refused, a client pause raised to 2 x TTL is said, before anything starts.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { MAIN, runCli } from './run-cli.js';

describe('shared run-option checks, run and compare --dry-run alike', () => {
  it('--wait-replicas with redis: refused by run and by compare --dry-run, with a hint', () => {
    for (const args of [
      ['run', '--backend', 'redis', '--wait-replicas', '1', '--results', '/proc/nope'],
      ['compare', '--backends', 'redis,etcd', '--resources', 'none', '--nemeses', 'none', '--wait-replicas', '1', '--dry-run'],
    ]) {
      const r = runCli(args, { timeout: 20_000 });
      expect(r.code).toBe(254);
      expect(r.stderr).toContain('Expected `--wait-replicas` only with the redis-sentinel backend');
      expect(r.stderr).toContain('Hint: Drop --wait-replicas');
    }
  });

  it('compare --dry-run with redis-sentinel in the matrix takes --wait-replicas', () => {
    const r = runCli(
      [
        'compare',
        '--backends',
        'redis,redis-sentinel',
        '--resources',
        'none',
        '--nemeses',
        'none',
        '--wait-replicas',
        '1',
        '--dry-run',
        '--out',
        '/tmp/fencecheck-unused-compare-dir',
      ],
      { timeout: 20_000 },
    );
    expect(r.code).toBe(0);
  });

  it('--duration-ms 100 under a client pause: compare --dry-run warns that each pause lasts 2 x TTL', () => {
    const r = spawnDry([
      'compare',
      '--backends',
      'redis',
      '--resources',
      'none',
      '--nemeses',
      'client-pause',
      '--duration-ms',
      '100',
      '--dry-run',
      '--out',
      '/tmp/fencecheck-unused-compare-dir',
    ]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('warning: --duration-ms 100 is shorter than 2 x --ttl-ms: each client pause lasts 4000 ms');
  });
});

/** runCli keeps stderr only on failure; a dry run succeeds, so its stderr is read here. */
function spawnDry(args: string[]): { stderr: string; status: number | null } {
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 20_000 });
}
