/**
 * runCompare with a stand-in for runLockTest: every run of the plan once, the
 * manifest after each, resuming after a stop, tool errors recorded and tried
 * again, three in a row stopping, shards, and the progress lines.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompareReport } from '../../src/compare/compare-report.js';
import { newManifest, readManifest } from '../../src/compare/manifest.js';
import { openCompareDir, resumeCompareDir } from '../../src/compare/open-compare-dir.js';
import { runCompare, type CompareDeps, type RunOne } from '../../src/compare/run-compare.js';
import { FencecheckError, UsageError } from '../../core/errors.js';
import { RunFailedError } from '../../runtime/store/run-failed-error.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import { fakeClock, fakeRunOne, spec, tempDir, writeRunDir, type FixtureOutcome } from './fixture-runs.js';

/** none under client-pause loses updates; everything else is valid. */
const outcome = (o: RunOptions): FixtureOutcome =>
  o.resource === 'none' && o.nemesis.includes('client-pause') ? { valid: false, anomalies: { 'lost-update': 2 } } : { valid: true };

function deps(runOne: RunOne, clock = fakeClock(), lines: string[] = []): CompareDeps {
  return { runOne, writeReport: null, io: { write: (t) => void lines.push(t), live: false, now: clock.now }, verbose: false, clusterBusy: async () => false };
}

const readJson = (dir: string): CompareReport => JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as CompareReport;

describe('runCompare', () => {
  it('runs every planned run once, one backend after another (a warm cluster serves each), and writes the manifest and the four outputs', async () => {
    const dir = tempDir('all');
    const runOne = fakeRunOne(outcome);
    const report = await runCompare(dir, newManifest(spec(), null, 'now'), null, deps(runOne));
    expect(runOne.calls.map((o) => `${o.backend}/${o.resource}/${o.nemesis.join('+')}#${o.seed}`)).toEqual([
      'redis/none/client-pause#1',
      'redis/none/kill#1',
      'redis/fence/client-pause#1',
      'redis/fence/kill#1',
      'redis/none/client-pause#2',
      'redis/none/kill#2',
      'redis/fence/client-pause#2',
      'redis/fence/kill#2',
      'redlock/none/client-pause#1',
      'redlock/none/kill#1',
      'redlock/none/client-pause#2',
      'redlock/none/kill#2',
    ]);
    // The order changed, not the plan: each run keeps its index in the whole run list.
    expect(
      readManifest(dir)!
        .runs.map((r) => r.index)
        .sort((a, b) => a - b),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(runOne.calls[0]!.resultsDir).toBe(join(dir, 'runs', 'redis-none-client-pause', 'seed-1'));
    expect(readManifest(dir)!.runs).toHaveLength(12);
    for (const f of ['compare.html', 'compare.json', 'junit.xml', 'summary.md', 'runs/redis-none-kill/seed-2/run.log'])
      expect(existsSync(join(dir, f))).toBe(true);
    expect(report.exitCode).toBe(1);
    expect(report.totals).toMatchObject({ cells: 8, notApplicable: 2, planned: 12, finished: 12, invalid: 4, missing: 0 });
    const c = report.cells.find((x) => x.id === 'redis/none/client-pause')!;
    expect(c).toMatchObject({ outcome: 'unsafe', invalid: 2, rate: 1, anomalies: { 'lost-update': 4 } });
    expect(c.runs[0]!.runDir).toBe('runs/redis-none-client-pause/seed-1/redis-none-lock-counter/run1');
    expect(readJson(dir).headline).toBe(report.headline);
    expect(report.warnings).toEqual([]);
  });

  it('resumes after a stop, skipping the runs the manifest records as done', async () => {
    const dir = tempDir('resume');
    let n = 0;
    const stopping = fakeRunOne((o) => {
      if (++n === 3) throw new FencecheckError('preflight', 'not root');
      return outcome(o);
    });
    await expect(runCompare(dir, openCompareDir(dir, spec(), null, 'now'), null, deps(stopping))).rejects.toThrow('not root');
    expect(readManifest(dir)!.runs.map((r) => r.id)).toEqual(['redis/none/client-pause#1', 'redis/none/kill#1']);
    expect(readJson(dir).totals).toMatchObject({ finished: 2, missing: 10 });

    const lines: string[] = [];
    const rest = fakeRunOne(outcome);
    const report = await runCompare(dir, resumeCompareDir(dir), null, deps(rest, fakeClock(), lines));
    expect(rest.calls).toHaveLength(10);
    expect(rest.calls[0]).toMatchObject({ backend: 'redis', resource: 'fence', nemesis: ['client-pause'], seed: 1 });
    expect(lines[0]).toBe(`resuming ${dir}: 2 of 12 runs already done\n`);
    expect(report.totals).toMatchObject({ finished: 12, missing: 0 });
  });

  it('refuses an --out directory that holds another comparison', () => {
    const dir = tempDir('other');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(newManifest(spec(), null, 'now')));
    expect(openCompareDir(dir, spec(), null, 'x').createdAt).toBe('now');
    expect(() => openCompareDir(dir, spec({ seeds: [1] }), null, 'x')).toThrow(/holds another one/);
    expect(() => openCompareDir(dir, spec(), { index: 1, count: 2 }, 'x')).toThrow(/shard none/);
    expect(() => resumeCompareDir(tempDir('empty'))).toThrow(UsageError);
  });

  it('records a tool failure as an error, goes on, and tries it again on resume', async () => {
    const dir = tempDir('errors');
    const flaky = fakeRunOne((o) => {
      if (o.backend === 'redlock' && o.seed === 1 && o.nemesis[0] === 'kill') throw new Error('cluster did not start');
      return outcome(o);
    });
    const first = await runCompare(dir, newManifest(spec(), null, 'now'), null, deps(flaky));
    expect(flaky.calls).toHaveLength(12);
    const cell = first.cells.find((c) => c.id === 'redlock/none/kill')!;
    expect(cell).toMatchObject({ outcome: 'unknown', unknown: 1 });
    expect(cell.runs[0]).toMatchObject({ status: 'error', error: 'cluster did not start', runDir: null, log: 'runs/redlock-none-kill/seed-1/run.log' });
    expect(readFileSync(join(dir, cell.runs[0]!.log!), 'utf8')).toMatch(/error: Error: cluster did not start/);

    const again = fakeRunOne(outcome);
    const second = await runCompare(dir, resumeCompareDir(dir), null, deps(again));
    expect(again.calls.map((o) => `${o.backend}/${o.nemesis[0]}#${o.seed}`)).toEqual(['redlock/kill#1']);
    expect(second.cells.find((c) => c.id === 'redlock/none/kill')!.outcome).toBe('safe');
  });

  it('keeps the run directory a failed run left, with its report', async () => {
    const dir = tempDir('left');
    const reports: string[] = [];
    const dying: RunOne = async (o) => {
      const runDir = writeRunDir(join(o.resultsDir, 'redis-none-lock-counter', '20261129T120000'), o, null);
      // A run that failed after making its directory says which (runLockTest through RunStore.failed).
      throw new RunFailedError(runDir, new Error('lock client exited'));
    };
    const d = { ...deps(dying), writeReport: async (runDir: string) => (reports.push(runDir), runDir) };
    const report = await runCompare(dir, newManifest(spec({ backends: ['redis'], resources: ['none'], nemeses: ['kill'], seeds: [1] }), null, 'now'), null, d);
    const run = report.cells[0]!.runs[0]!;
    expect(run).toMatchObject({ status: 'error', runDir: 'runs/redis-none-kill/seed-1/redis-none-lock-counter/20261129T120000', error: 'lock client exited' });
    expect(run.replay).toContain('--nemesis kill');
    expect(reports).toEqual([join(dir, run.runDir!)]);
  });

  it('on three lanes: every run once, side by side, each lane keeping to one backend while it has runs, the same matrix as one lane', async () => {
    const one = await runCompare(tempDir('one-lane'), newManifest(spec(), null, 'now'), null, deps(fakeRunOne(outcome)));
    const inner = fakeRunOne(outcome);
    let busy = 0;
    let most = 0;
    const byLane: string[][] = [[], [], []];
    const laned: RunOne = async (o, hooks, lane) => {
      most = Math.max(most, ++busy);
      byLane[lane]!.push(o.backend);
      for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
      busy--;
      return inner(o, hooks, lane);
    };
    const dir = tempDir('three-lanes');
    const three = await runCompare(dir, newManifest(spec(), null, 'now'), null, { ...deps(laned), lanes: 3 });
    expect(most).toBe(3);
    expect(inner.calls).toHaveLength(12);
    expect(new Set(inner.calls.map((o) => `${o.backend}/${o.resource}/${o.nemesis.join('+')}#${o.seed}`)).size).toBe(12);
    // A lane changes backend only when its own backend has no run left.
    for (const backends of byLane) expect(backends.filter((b, i) => i > 0 && b !== backends[i - 1]).length).toBeLessThanOrEqual(1);
    expect(three.cells.map((c) => [c.id, c.outcome, c.invalid])).toEqual(one.cells.map((c) => [c.id, c.outcome, c.invalid]));
    expect(readManifest(dir)!.runs).toHaveLength(12);
  });

  it('lets each run wait for a cluster another process keeps busy (15 min), saying so; still busy then stops the comparison', async () => {
    const dir = tempDir('busy');
    const waits: number[] = [];
    const lines: string[] = [];
    const runOne = fakeRunOne(outcome);
    const waiting: RunOne = async (o, hooks, lane) => (waits.push(hooks.busyTimeoutMs), runOne(o, hooks, lane));
    const d = { ...deps(waiting, fakeClock(), lines), clusterBusy: async () => true };
    const report = await runCompare(dir, newManifest(spec({ backends: ['redis'], resources: ['fence'], nemeses: ['kill'], seeds: [1] }), null, 'now'), null, d);
    expect(waits).toEqual([15 * 60_000]);
    expect(lines).toContain('  another fencecheck process is running a cluster on this machine: waiting for it to finish (up to 15 min)\n');
    expect(report.cells[0]!.outcome).toBe('safe');
    // runLockTest gave up waiting: every later run would too.
    const busy = new FencecheckError('cluster-busy', 'A cluster started by process 42 (still running) is recorded in /run/x.');
    const gaveUp = fakeRunOne(() => {
      throw busy;
    });
    await expect(runCompare(tempDir('busy2'), newManifest(spec(), null, 'now'), null, deps(gaveUp))).rejects.toBe(busy);
    expect(gaveUp.calls).toHaveLength(1);
  });

  it('stops after three tool failures in a row, saying how to resume', async () => {
    const dir = tempDir('broken');
    const broken = fakeRunOne(() => {
      throw new Error('no space left on device');
    });
    await expect(runCompare(dir, newManifest(spec(), null, 'now'), null, deps(broken))).rejects.toThrow(
      '3 runs in a row failed to run (last: no space left on device)',
    );
    expect(broken.calls).toHaveLength(3);
    expect(readManifest(dir)!.runs.every((r) => r.status === 'error')).toBe(true);
  });

  it('runs only its shard, judging only its own cells', async () => {
    const dir = tempDir('shard');
    const runOne = fakeRunOne(outcome);
    const report = await runCompare(dir, newManifest(spec(), { index: 2, count: 4 }, 'now'), null, deps(runOne));
    expect(runOne.calls.map((o) => `${o.backend}/${o.resource}/${o.nemesis[0]}#${o.seed}`)).toEqual([
      'redis/none/kill#1',
      'redis/fence/kill#2',
      'redlock/none/kill#1',
    ]);
    expect(report.shards).toEqual(['2/4']);
    expect(report.totals).toMatchObject({ planned: 3, finished: 3, missing: 0 });
    expect(report.cells.find((c) => c.id === 'redis/fence/client-pause')!.outcome).toBe('not-run');
  });

  it('writes each run report when the run has none', async () => {
    const dir = tempDir('report');
    const written: string[] = [];
    const d = deps(fakeRunOne(outcome));
    d.writeReport = async (runDir) => {
      written.push(runDir);
      writeFileSync(join(runDir, 'report.html'), '<html></html>');
      return join(runDir, 'report.html');
    };
    const report = await runCompare(dir, newManifest(spec({ seeds: [1] }), null, 'now'), null, d);
    expect(written).toHaveLength(6);
    expect(report.cells[0]!.runs[0]!.link).toBe('runs/redis-none-client-pause/seed-1/redis-none-lock-counter/run1/report.html');
  });

  it('prints one line per run start and end with the time left', async () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const runOne = fakeRunOne((o) => {
      clock.tick(10_000);
      return { ...outcome(o), durationMs: 10_000 };
    });
    await runCompare(tempDir('progress'), newManifest(spec({ backends: ['redis'], seeds: [1] }), null, 'now'), null, deps(runOne, clock, lines));
    expect(lines.slice(0, 4)).toEqual([
      '[1/4] start redis/none/client-pause seed 1\n',
      '[1/4] INVALID (lost-update 2) redis/none/client-pause seed 1 in 10s · 1/4 done · 10s elapsed · ETA 30s\n',
      '[2/4] start redis/none/kill seed 1\n',
      '[2/4] valid redis/none/kill seed 1 in 10s · 2/4 done · 20s elapsed · ETA 20s\n',
    ]);
  });
});
