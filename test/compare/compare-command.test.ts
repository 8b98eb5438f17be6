/**
 * `fencecheck compare` in-process (no root, no cluster): --dry-run plans,
 * --merge with --expect writes the matrix and sets the exit code, and flags
 * that do not go together are refused with the flag named.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareInProcess } from './compare-in-process.js';
import { newManifest } from '../../src/compare/manifest.js';
import { planText } from '../../src/compare/plan-text.js';
import { runCompare } from '../../src/compare/run-compare.js';
import { runCli } from '../cli/run-cli.js';
import { fakeClock, fakeRunOne, spec, tempDir } from './fixture-runs.js';

const { io, compare } = compareInProcess();

describe('fencecheck compare', () => {
  it("--dry-run prints the plan, the n/a cells and the shard's runs, and runs nothing", async () => {
    const dir = join(tempDir('dry'), 'c');
    await compare(
      '--backends',
      'redis,redlock',
      '--resources',
      'none,fence',
      '--nemeses',
      'client-pause,partition+kill',
      '--seeds',
      '2',
      '--shard',
      '1/3',
      '--time-limit',
      '10',
      '--out',
      dir,
      '--parallel',
      '1',
      '--dry-run',
    );
    expect(io.out).toContain('compare: 8 cells (2 not applicable) x 2 seeds = 12 runs');
    expect(io.out).toContain('shard 1/3: 4 runs here, about 1m20s at ~20s each, one at a time');
    expect(io.out).toContain('  redlock/fence/partition+kill: redlock issues no monotonic fencing token');
    expect(io.out).toContain(
      '  #0 redis/none/client-pause seed 1\n  #3 redis/fence/partition+kill seed 1\n  #6 redis/none/client-pause seed 2\n  #9 redis/fence/partition+kill seed 2',
    );
    expect(existsSync(dir)).toBe(false);
  });

  it('the plan says how many runs go at a time, and the time they take so', () => {
    const manifest = newManifest(spec({ backends: ['redis', 'etcd'], seeds: [1, 2, 3] }), null, '2026-12-06T00:00:00.000Z');
    const one = planText(manifest, { listRuns: false });
    const two = planText(manifest, { listRuns: false, lanes: 2 });
    const perRun = /at ~(\S+) each/.exec(one)![1];
    expect(one).toMatch(/about \S+ at ~\S+ each, one at a time/);
    expect(two).toContain(`at ~${perRun} each, 2 at a time`);
    const total = (text: string): string => /about (\S+) at/.exec(text)![1]!;
    expect(total(two)).not.toBe(total(one));
  });

  it('--lock-clients: the clients are rows, on their own backends unless --backends says; bad lists refused before anything runs', async () => {
    const dir = join(tempDir('dry-clients'), 'c');
    await compare(
      '--lock-clients',
      'builtin,redis-semaphore,etcd3-lock',
      '--backends',
      'redis,etcd',
      '--resources',
      'none,fence-claim',
      '--nemeses',
      'client-pause',
      '--out',
      dir,
      '--dry-run',
    );
    expect(io.out).toContain('compare: 8 cells (2 not applicable) x 1 seed = 6 runs');
    expect(io.out).toContain(
      '  #0 redis/none/client-pause seed 1\n  #1 redis/fence-claim/client-pause seed 1\n  #2 etcd/none/client-pause seed 1\n  #3 etcd/fence-claim/client-pause seed 1\n  #4 redis-semaphore@redis/none/client-pause seed 1\n  #5 etcd3-lock@etcd/none/client-pause seed 1',
    );
    expect(io.out).toContain('  redis-semaphore@redis/fence-claim/client-pause: redis-semaphore announces unique tokens');
    expect(existsSync(dir)).toBe(false);
    // Without --backends, named clients bring their own backends (and builtin the default ones).
    io.out = '';
    await compare('--lock-clients', 'redis-semaphore,etcd3-lock', '--resources', 'none', '--nemeses', 'client-pause', '--out', dir, '--dry-run');
    expect(io.out).toContain('compare: 2 cells (0 not applicable) x 1 seed = 2 runs');
    expect(io.out).toContain('  #0 redis-semaphore@redis/none/client-pause seed 1\n  #1 etcd3-lock@etcd/none/client-pause seed 1');
    await expect(compare('--lock-clients', 'etcd3-lock', '--backends', 'redis', '--dry-run')).rejects.toThrow(
      'Expected `--backends` to include a backend of the client etcd3-lock (etcd), got `redis`',
    );
    await expect(compare('--lock-clients', 'builtin', '--client', '/usr/bin/python3 x.py', '--dry-run')).rejects.toThrow(
      'Expected `--client` or `--lock-clients`, not both',
    );
    await expect(compare('--lock-clients', 'nope', '--dry-run')).rejects.toThrow(
      'Expected `--lock-clients` to list builtin, known client names or command lines, got `nope`',
    );
  });

  it('the CLI exits 254 on an unknown --lock-clients name, with the known names as the hint and no stack trace', () => {
    const r = runCli(['compare', '--lock-clients', 'builtin,redlock-universal', '--dry-run']);
    expect(r.code).toBe(254);
    expect(r.stderr).toContain('got `redlock-universal`');
    expect(r.stderr).toMatch(/Hint: Known clients: builtin, redis-semaphore,/);
    expect(r.stderr).not.toMatch(/internal error|at .*\.js/);
  });

  it('--dry-run lists the most seeds --seeds takes (1000); one more is refused', async () => {
    const parent = tempDir('dry-big');
    await compare('--backends', 'redis', '--resources', 'none', '--nemeses', 'client-pause', '--seeds', '1000', '--out', join(parent, 'c'), '--dry-run');
    expect(io.out).toContain('  #999 redis/none/client-pause seed 1000\n');
    await expect(compare('--backends', 'redis', '--seeds', '1001', '--dry-run')).rejects.toThrow(
      'Expected `--seeds` to be an integer from 1 to 1000, got `1001`',
    );
    rmSync(parent, { recursive: true, force: true });
  });

  it('--merge refuses an --out that is a file', async () => {
    const root = tempDir('out-file');
    await runCompare(join(root, 'c'), newManifest(spec({ seeds: [1] }), null, 'now'), null, {
      runOne: fakeRunOne(() => ({ valid: true })),
      writeReport: null,
      io: { write: () => undefined, live: false, now: fakeClock().now },
      verbose: false,
      clusterBusy: async () => false,
    });
    writeFileSync(join(root, 'file'), 'x');
    await expect(compare('--merge', join(root, 'c'), '--out', join(root, 'file'))).rejects.toThrow(/Expected `--out` to name a directory .* which is a file/);
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a negative first seed and a fault named twice in a column before anything runs', async () => {
    await expect(compare('--backends', 'redis', '--resources', 'none', '--nemeses', 'client-pause', '--first-seed', '-1', '--dry-run')).rejects.toThrow(
      'Expected `--first-seed` to be an integer from 0 to 2^53 - 1, got `-1`',
    );
    await expect(compare('--backends', 'redis', '--resources', 'none', '--nemeses', 'partition+partition', '--dry-run')).rejects.toThrow(
      'Expected each fault at most once in a `--nemeses` column, got `partition+partition` (partition twice)',
    );
  });

  it('--merge builds the matrix and --expect sets the exit code, listing each unmet cell', async () => {
    const root = tempDir('cli-merge');
    const deps = {
      runOne: fakeRunOne((o) => (o.resource === 'none' ? { valid: false, anomalies: { 'lost-update': 1 } } : { valid: true })),
      writeReport: null,
      io: { write: () => undefined, live: false, now: fakeClock().now },
      verbose: false,
      clusterBusy: async () => false,
    };
    for (const i of [1, 2]) await runCompare(join(root, `shard-${i}`), newManifest(spec({ seeds: [1] }), { index: i, count: 2 }, 'now'), null, deps);
    const expectFile = join(root, 'expect.json');
    writeFileSync(
      expectFile,
      JSON.stringify([
        { resource: 'none', expect: 'unsafe' },
        { resource: 'fence', expect: 'safe' },
      ]),
    );
    expect(await compare('--merge', join(root, 'shard-1'), join(root, 'shard-2'), '--out', join(root, 'merged'), '--expect', expectFile)).toBe(0);
    expect(io.out).toContain('all 2 expectations met');
    for (const f of ['compare.html', 'compare.json', 'junit.xml', 'summary.md']) expect(existsSync(join(root, 'merged', f))).toBe(true);

    writeFileSync(expectFile, JSON.stringify([{ expect: 'safe' }]));
    expect(await compare('--merge', root, '--out', join(root, 'merged'), '--expect', expectFile)).toBe(1);
    expect(io.out).toContain('unmet: #1 {"expect":"safe"}: redis/none/client-pause: 1 of 1 run invalid (lost-update 1)');
  });

  it('--nemeses none is a control column: its fenced cells come out untested, and --expect safe on them exits 1 naming them', async () => {
    const root = tempDir('cli-control');
    // The fence refused the paused holders' late writes under client-pause; with no fault nothing failed.
    const deps = {
      runOne: fakeRunOne((o) =>
        o.nemesis.length === 0
          ? { valid: true, evidence: { planned: 0, applied: 0, doubleHolds: 0, refusals: 0 } }
          : { valid: true, writes: { accepted: 30, rejected: 4 }, evidence: { doubleHolds: 2 } },
      ),
      writeReport: null,
      io: { write: () => undefined, live: false, now: fakeClock().now },
      verbose: false,
      clusterBusy: async () => false,
    };
    const s = spec({ backends: ['redis', 'etcd'], resources: ['fence-claim'], nemeses: ['none', 'client-pause'], seeds: [1, 2] });
    await runCompare(join(root, 'c'), newManifest(s, null, 'now'), null, deps);
    const expectFile = join(root, 'expect.json');
    writeFileSync(expectFile, JSON.stringify([{ resource: 'fence-claim', expect: 'safe' }]));
    expect(await compare('--merge', root, '--out', join(root, 'm'), '--expect', expectFile)).toBe(1);
    expect(io.out).toContain(
      'unmet: #1 {"resource":"fence-claim","expect":"safe"}: redis/fence-claim/none: untested: 2 runs valid, none showing the danger (no fault applied)',
    );
    expect(io.out).toContain(
      'unmet: #1 {"resource":"fence-claim","expect":"safe"}: etcd/fence-claim/none: untested: 2 runs valid, none showing the danger (no fault applied)',
    );
    expect(io.out).not.toContain('client-pause: untested');
    const report = JSON.parse(readFileSync(join(root, 'm', 'compare.json'), 'utf8')) as {
      cells: { id: string; outcome: string; evidence: { doubleHolds: number; refusals: number } }[];
    };
    expect(report.cells.map((c) => [c.id, c.outcome, c.evidence.doubleHolds, c.evidence.refusals])).toEqual([
      ['redis/fence-claim/none', 'untested', 0, 0],
      ['redis/fence-claim/client-pause', 'safe', 4, 8],
      ['etcd/fence-claim/none', 'untested', 0, 0],
      ['etcd/fence-claim/client-pause', 'safe', 4, 8],
    ]);
  });

  it('without --expect, the verdicts decide: 1 when a run is invalid', async () => {
    const root = tempDir('cli-verdict');
    const deps = {
      runOne: fakeRunOne(() => ({ valid: false, anomalies: { 'lost-update': 1 } })),
      writeReport: null,
      io: { write: () => undefined, live: false, now: fakeClock().now },
      verbose: false,
      clusterBusy: async () => false,
    };
    await runCompare(join(root, 'c'), newManifest(spec({ backends: ['redis'], resources: ['none'], nemeses: ['none'], seeds: [1] }), null, 'now'), null, deps);
    expect(await compare('--merge', root, '--out', join(root, 'm'))).toBe(1);
  });

  it.each([
    [['--resume', '/tmp', '--backends', 'redis'], 'Expected `--resume` alone (its manifest holds the matrix and options), got also --backends'],
    [['--resume', '/tmp', '--time-limit', '5'], 'got also --time-limit'],
    [['--merge', '/tmp', '--shard', '1/2'], 'Expected `--merge` without --resume, --shard or --dry-run'],
    [['--nemeses', 'client-pause,parition', '--dry-run'], 'Expected `--nemeses` to list none or faults among'],
    [
      ['--backends', 'redis,consul', '--dry-run'],
      'Expected `--backends` to be one of redis, redlock, redlock-npm, etcd, zookeeper, redis-sentinel, pg-advisory, pg-advisory-pooled, memcached, none, got `consul`',
    ],
    [
      ['--backends', 'redis,none', '--workload', 'mutex', '--dry-run'],
      'Cannot run this combination: the mutex workload judges the lock itself, and --backend none has no lock (use lock-counter or jobs).',
    ],
    [['--resume', tempDir('not-compare')], 'Expected `--resume` to name a compare directory'],
    [['--expect', '/nonexistent.json', '--dry-run'], 'Expected `--expect` to name a readable file'],
    [['--clients', '99', '--dry-run'], 'Expected `--clients` to be an integer from 1 to 50, got `99`'],
  ])('refuses %j', async (args, message) => {
    await expect(compare(...args)).rejects.toThrow(message);
  });
});
