/**
 * `fencecheck hunt --help` as a user reads it (the built CLI): the hunt
 * directory it names is the one the code makes (`<backend>-<resource>-<stamp>`
 * under `<dir>/hunt/`), and every numeric flag shows its range, as every
 * other command's does. Needs `npm run build`.
 */
import { describe, expect, it } from 'vitest';
import { RUN_RANGES } from '../../core/plan/run-options.js';
import { runCli } from './run-cli.js';

const help = (): string => runCli(['hunt', '--help']).stdout.replace(/\s+/g, ' ');

describe('fencecheck hunt --help', () => {
  it('names the hunt directory the hunt makes', async () => {
    const { huntDirName } = await import('../../src/hunt/hunt-dir.js');
    const stamp = '20261203T084211';
    expect(huntDirName({ backend: 'redis', resource: 'none' }, stamp)).toBe(`redis-none-${stamp}`);
    expect(huntDirName({ backend: 'etcd', resource: 'fence-claim' }, stamp, { index: 2, count: 4 })).toBe(`etcd-fence-claim-${stamp}-shard2of4`);
    expect(help()).toContain('<dir>/hunt/<backend>-<resource>-<stamp>/');
    expect(help()).not.toContain('<dir>/hunt/<timestamp>/');
  });

  it('shows the range of every numeric flag, --ttl-ms included', () => {
    const text = help();
    const numeric = [...text.matchAll(/(--[a-z-]+) <(?:n|ms|s|K|k)>([^-]*(?:-(?!-)[^-]*)*?)(?= --[a-z]|$)/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(numeric.map(([f]) => f)).toContain('--ttl-ms');
    for (const [flag, description] of numeric) expect(description, `${flag} shows no [min..max]`).toMatch(/\[\d+\.\.\d+/);
    expect(text).toContain(`[${RUN_RANGES.ttlMs.min}..${RUN_RANGES.ttlMs.max}`);
  });
});
