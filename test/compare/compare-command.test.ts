/**
 * `fencecheck compare` in-process (no root, no cluster): --dry-run plans,
 * --merge with --expect writes the matrix and sets the exit code, and flags
 * that do not go together are refused with the flag named.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerCompareCommand } from '../../src/cli/compare-command.js';
import { newManifest } from '../../src/compare/manifest.js';
import { runCompare } from '../../src/compare/run-compare.js';
import { fakeClock, fakeRunOne, spec, tempDir } from './fixture-runs.js';

let out = '';
let err = '';
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((out += String(t)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((t) => ((err += String(t)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

async function compare(...args: string[]): Promise<number | undefined> {
  const program = new Command().exitOverride();
  registerCompareCommand(program);
  await program.parseAsync(['node', 'fencecheck', 'compare', ...args]);
  return process.exitCode as number | undefined;
}

describe('fencecheck compare', () => {
  it('--dry-run prints the plan, the n/a cells and the shard\'s runs, and runs nothing', async () => {
    const dir = join(tempDir('dry'), 'c');
    await compare('--backends', 'redis,redlock', '--resources', 'none,fence', '--nemeses', 'client-pause,partition+kill', '--seeds', '2', '--shard', '1/3', '--time-limit', '10', '--out', dir, '--dry-run');
    expect(err).toContain('compare: 8 cells (2 not applicable) x 2 seeds = 12 runs');
    expect(err).toContain('shard 1/3: 4 runs here, about 2m20s at ~35s each, one at a time');
    expect(err).toContain('  redlock/fence/partition+kill: redlock issues no monotonic fencing token');
    expect(err).toContain('  #0 redis/none/client-pause seed 1\n  #3 redis/fence/partition+kill seed 1\n  #6 redis/none/client-pause seed 2\n  #9 redis/fence/partition+kill seed 2');
    expect(existsSync(dir)).toBe(false);
  });

  it('--merge builds the matrix and --expect sets the exit code, listing each unmet cell', async () => {
    const root = tempDir('cli-merge');
    const deps = { runOne: fakeRunOne((o) => (o.resource === 'none' ? { valid: false, anomalies: { 'lost-update': 1 } } : { valid: true })), writeReport: null, io: { write: () => undefined, live: false, now: fakeClock().now }, verbose: false };
    for (const i of [1, 2]) await runCompare(join(root, `shard-${i}`), newManifest(spec({ seeds: [1] }), { index: i, count: 2 }, 'now'), null, deps);
    const expectFile = join(root, 'expect.json');
    writeFileSync(expectFile, JSON.stringify([{ resource: 'none', expect: 'unsafe' }, { resource: 'fence', expect: 'safe' }]));
    expect(await compare('--merge', join(root, 'shard-1'), join(root, 'shard-2'), '--out', join(root, 'merged'), '--expect', expectFile)).toBe(0);
    expect(out).toContain('all 2 expectations met');
    for (const f of ['compare.html', 'compare.json', 'junit.xml', 'summary.md']) expect(existsSync(join(root, 'merged', f))).toBe(true);

    writeFileSync(expectFile, JSON.stringify([{ expect: 'safe' }]));
    expect(await compare('--merge', root, '--out', join(root, 'merged'), '--expect', expectFile)).toBe(1);
    expect(out).toContain('unmet: #1 {"expect":"safe"}: redis/none/client-pause: 1 of 1 run invalid (lost-update 1)');
  });

  it('without --expect, the verdicts decide: 1 when a run is invalid', async () => {
    const root = tempDir('cli-verdict');
    const deps = { runOne: fakeRunOne(() => ({ valid: false, anomalies: { 'double-hold': 1 } })), writeReport: null, io: { write: () => undefined, live: false, now: fakeClock().now }, verbose: false };
    await runCompare(join(root, 'c'), newManifest(spec({ backends: ['redis'], resources: ['none'], nemeses: ['none'], seeds: [1] }), null, 'now'), null, deps);
    expect(await compare('--merge', root, '--out', join(root, 'm'))).toBe(1);
  });

  it.each([
    [['--resume', '/tmp', '--backends', 'redis'], 'Expected `--resume` alone (its manifest holds the matrix and options), got also --backends'],
    [['--resume', '/tmp', '--time-limit', '5'], 'got also --time-limit'],
    [['--merge', '/tmp', '--shard', '1/2'], 'Expected `--merge` without --resume, --shard or --dry-run'],
    [['--nemeses', 'client-pause,parition', '--dry-run'], 'Expected `--nemeses` to list none or faults among'],
    [['--backends', 'redis,consul', '--dry-run'], 'Expected `--backends` to be one of redis, redlock, redlock-npm, etcd, zookeeper, redis-sentinel, got `consul`'],
    [['--resume', tempDir('not-compare')], 'Expected `--resume` to name a compare directory'],
    [['--expect', '/nonexistent.json', '--dry-run'], 'Expected `--expect` to name a readable file'],
    [['--clients', '99', '--dry-run'], 'Expected `--clients` to be an integer from 1 to 50, got `99`'],
  ])('refuses %j', async (args, message) => {
    await expect(compare(...args)).rejects.toThrow(message);
  });
});
