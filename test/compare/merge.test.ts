/**
 * Merging: shards run into separate directories merge into the matrix of the
 * unsharded comparison; a missing shard shows as missing runs and exit 2;
 * loose run directories are found under any folder; a run found twice counts once.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompareReport } from '../../src/compare/compare-report.js';
import { findCompareInputs } from '../../src/compare/find-compare-inputs.js';
import { newManifest } from '../../src/compare/manifest.js';
import { mergeCompare } from '../../src/compare/merge-compare.js';
import { runCompare, type CompareDeps } from '../../src/compare/run-compare.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { fakeClock, fakeRunOne, runOptions, spec, tempDir, writeRunDir, type FixtureOutcome } from './fixture-runs.js';

const outcome = (o: RunOptions): FixtureOutcome =>
  o.resource === 'none' && o.seed === 2
    ? { valid: false, anomalies: { 'lost-update': 1 } }
    : o.resource === 'fence'
      ? { valid: true, writes: { accepted: 3, rejected: 2 } }
      : { valid: true };
const deps = (): CompareDeps => ({
  runOne: fakeRunOne(outcome),
  writeReport: null,
  io: { write: () => undefined, live: false, now: fakeClock().now },
  verbose: false,
  clusterBusy: async () => false,
});

const merge = (paths: string[], out: string): CompareReport => mergeCompare(paths, out, null, 'now').report;

/** What a matrix says, without paths. */
const shape = (r: CompareReport) => r.cells.map((c) => [c.id, c.outcome, c.invalid, c.runs.length, c.writes?.rejected ?? null, JSON.stringify(c.anomalies)]);

describe('merging compare directories', () => {
  it('three shards merge into the matrix of the unsharded comparison', async () => {
    const whole = await runCompare(tempDir('whole'), newManifest(spec(), null, 'now'), null, deps());
    const root = tempDir('artifacts');
    for (const i of [1, 2, 3]) await runCompare(join(root, `shard-${i}`), newManifest(spec(), { index: i, count: 3 }, 'now'), null, deps());
    const merged = merge([root], join(root, 'merged'));
    expect(shape(merged)).toEqual(shape(whole));
    expect(merged.shards).toEqual(['1/3', '2/3', '3/3']);
    expect(merged.warnings).toEqual([]);
    expect(merged.exitCode).toBe(1);
    expect(merged.cells[0]!.runs[0]!.runDir).toBe('../shard-1/runs/redis-none-client-pause/seed-1/redis-none-lock-counter/run1');
  });

  it('a missing shard leaves its runs missing and the verdict unknown', async () => {
    const root = tempDir('partial');
    const safe = spec({ resources: ['fence'] });
    for (const i of [1, 3]) await runCompare(join(root, `shard-${i}`), newManifest(safe, { index: i, count: 3 }, 'now'), null, deps());
    const merged = merge([join(root, 'shard-1'), join(root, 'shard-3')], join(root, 'merged'));
    expect(merged.warnings).toEqual(['shard 2/3 is missing: its runs count as missing']);
    expect(merged.totals).toMatchObject({ planned: 4, finished: 3, missing: 1, invalid: 0 });
    expect(merged.verdict).toBe('unknown');
    expect(merged.exitCode).toBe(2);
  });

  it('finds loose run directories under any folder, not through links, and counts a run found twice once', () => {
    const root = tempDir('loose');
    const o = runOptions({ backend: 'etcd', resource: 'fence-claim', nemesis: ['partition', 'kill'], seed: 4 });
    writeRunDir(join(root, 'a', 'etcd-fence-claim-lock-counter', 'r1'), o, { valid: true }, '2026-11-29T10:00:00Z');
    writeRunDir(join(root, 'b', 'deep', 'r2'), o, { valid: false, anomalies: { 'stale-write': 1 } }, '2026-11-29T11:00:00Z');
    writeRunDir(join(root, 'c', 'r3'), runOptions({ backend: 'etcd', resource: 'none', seed: 1 }), { valid: true });
    symlinkSync(join(root, 'c', 'r3'), join(root, 'c', 'latest'));
    mkdirSync(join(root, 'd', 'logs'), { recursive: true });
    // Not one of our runs: skipped with the reader's reason, not fatal.
    mkdirSync(join(root, 'e'), { recursive: true });
    writeFileSync(join(root, 'e', 'test.json'), '{}\n');
    const merged = merge([root], join(root, 'out'));
    expect(merged.axes).toEqual({ backends: ['etcd'], resources: ['fence-claim', 'none'], nemeses: ['partition+kill', 'none'] });
    const cell = merged.cells.find((c) => c.id === 'etcd/fence-claim/partition+kill')!;
    expect(cell).toMatchObject({ outcome: 'unsafe', runs: [{ seed: 4, status: 'invalid', runDir: '../b/deep/r2' }] });
    expect(merged.cells.find((c) => c.id === 'etcd/none/none')!.runs).toHaveLength(1);
    expect(merged.warnings).toHaveLength(2);
    expect(merged.warnings).toContainEqual(expect.stringMatching(/^etcd\/fence-claim\/partition\+kill#4 was found twice .* the later run counts$/));
    expect(merged.warnings).toContain(
      `${join(root, 'e', 'test.json')}: expected \`name\` to be the name of the test, found nothing (the field is missing); skipped`,
    );
  });

  it('takes a compare directory as a whole even when given by a link or copied', async () => {
    const root = tempDir('copy');
    await runCompare(join(root, 'one'), newManifest(spec({ backends: ['redis'], seeds: [1] }), null, 'now'), null, deps());
    cpSync(join(root, 'one'), join(root, 'moved', 'one'), { recursive: true });
    symlinkSync(join(root, 'moved', 'one'), join(root, 'link'));
    const merged = merge([join(root, 'link')], join(root, 'out'));
    expect(merged.totals).toMatchObject({ planned: 4, finished: 4 });
  });

  it('refuses paths that hold nothing to merge', () => {
    expect(() => findCompareInputs([tempDir('nothing')])).toThrow(/found none/);
    expect(() => findCompareInputs(['/nonexistent/fencecheck'])).toThrow('Expected `--merge` to list directories, got `/nonexistent/fencecheck`');
  });

  it('refuses a manifest with fields of the wrong type, naming the field (254, not a crash)', async () => {
    const dir = tempDir('wrong-types');
    await runCompare(dir, newManifest(spec({ seeds: [1] }), null, 'now'), null, deps());
    const good = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { spec: Record<string, unknown>; runs: Record<string, unknown>[] };
    const cases: [string, (m: typeof good) => void, RegExp][] = [
      ['resources a number', (m) => (m.spec['resources'] = 5), /expected `spec\.resources` to be a list of names/],
      ['run options missing', (m) => delete m.spec['run'], /expected `spec\.run` to hold the run options/],
      ['runDir a number', (m) => (m.runs[0]!['runDir'] = 7), /expected `runs\[0\]`\.runDir to be a path or null, got 7/],
      [
        'runDir outside',
        (m) => (m.runs[0]!['runDir'] = '../../../../etc'),
        /expected `runs\[0\]`\.runDir to be a path inside the compare directory, got "\.\.\/\.\.\/\.\.\/\.\.\/etc"/,
      ],
      ['log absolute', (m) => (m.runs[0]!['log'] = '/etc/shadow'), /expected `runs\[0\]`\.log to be a path inside the compare directory/],
      // Found by the manifest fuzz test (CI seed 788202669): a cell id of two parts crashed the matrix.
      [
        'cellId two parts',
        (m) => (m.runs[0]!['cellId'] = 'redlock/none:invokeclient-pause'),
        /expected `runs\[0\]`\.cellId to be LOCK\/RESOURCE\/NEMESIS \(three parts/,
      ],
      ['cellId bad nemesis', (m) => (m.runs[0]!['cellId'] = 'redis/none/sneeze'), /\.cellId to be LOCK\/RESOURCE\/NEMESIS \(a nemesis column/],
      ['id not cellId#seed', (m) => (m.runs[0]!['id'] = '[[redis/none/client-pause#1'), /\.id to be its cellId#seed/],
      ['unknown resource', (m) => (m.spec['resources'] = ['none', 'moat']), /expected `spec\.resources` to name resource modes among .*got "moat"/],
      ['unknown backend', (m) => (m.spec['backends'] = ['redis', 'consul']), /expected `spec\.backends` to name backends among .*got "consul"/],
    ];
    for (const [, edit, message] of cases) {
      const copy = JSON.parse(JSON.stringify(good)) as typeof good;
      edit(copy);
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify(copy));
      expect(() => merge([dir], join(dir, 'm'))).toThrow(expect.objectContaining({ exitCode: 254, message: expect.stringMatching(message) }));
    }
    rmSync(dir, { recursive: true, force: true });
  });
});
