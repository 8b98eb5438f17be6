import { madeTempDir } from '../support/temp-dirs.js';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskFullError, nodeIo, writeFileAtomic } from '../../runtime/store/atomic-write.js';
import type { ResultsJson } from '../../core/run-files/results-json.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import { RunFailedError } from '../../runtime/store/run-failed-error.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { type TestJson } from '../../core/run-files/test-json.js';
import { DEFAULTS } from '../../core/plan/run-options.js';
import { ClusterBusyError } from '../../runtime/hosts/cluster-errors.js';
import { planRun } from '../../core/plan/run-plan.js';

const temp = (): string => madeTempDir('fencecheck-store-');

const NOW = new Date('2026-11-30T19:20:05.123Z');

const sampleTest = (resultsDir: string): TestJson => ({
  ...DEFAULTS,
  resultsDir,
  backend: 'etcd',
  resource: 'fence-claim',
  workload: 'lock-counter',
  nemesis: ['client-pause'],
  name: 'etcd-fence-claim-lock-counter',
  startedAt: NOW.toISOString(),
  versions: { fencecheck: '0.1.0', node: 'v20' },
  replay: 'fencecheck run --backend etcd',
});

const sampleResults: ResultsJson = {
  valid: true,
  deciding: ['lost-updates'],
  durationMs: 1234,
  checkers: [{ checker: 'lost-updates', valid: true, summary: 'none lost', anomalies: [], anomalyCount: 0 }],
  outcome: 'safe',
  evidence: { faults: { planned: 2, applied: 2, skipped: [], failed: [] }, protection: { doubleHolds: 1, refusals: 3 } },
};

describe('RunStore', () => {
  it('makes <results>/<name>/<timestamp> with logs/, and a second run in the same second gets -2, -3; latest follows', () => {
    const results = temp();
    const a = RunStore.create(results, 'etcd-x', NOW);
    const b = RunStore.create(results, 'etcd-x', NOW);
    const c = RunStore.create(results, 'etcd-x', NOW);
    expect([a.dir, b.dir, c.dir]).toEqual(['20261130T192005', '20261130T192005-2', '20261130T192005-3'].map((n) => join(results, 'etcd-x', n)));
    expect(existsSync(a.logsDir)).toBe(true);
    expect(readlinkSync(join(results, 'etcd-x', 'latest'))).toBe('20261130T192005-3');
    // No temporary link is left behind.
    expect(readdirSync(join(results, 'etcd-x')).sort()).toEqual(['20261130T192005', '20261130T192005-2', '20261130T192005-3', 'latest']);
  });

  it('writes test.json and results.json that the readers give back; markInterrupted adds the signal', () => {
    const results = temp();
    const store = RunStore.create(results, 'etcd-x', NOW);
    const test = sampleTest(results);
    store.writeTest(test);
    store.writeResults(sampleResults);
    expect(readTestJson(store.dir)).toEqual(test);
    expect(readResultsJson(store.dir)).toEqual(sampleResults);
    store.markInterrupted('SIGINT', new Date('2026-11-30T19:21:00.000Z'));
    expect(readTestJson(store.dir)).toEqual({ ...test, interrupted: { signal: 'SIGINT', at: '2026-11-30T19:21:00.000Z' } });
    // A write racing the teardown (the run's last test.json) keeps the mark.
    store.writeTest(test);
    expect(readTestJson(store.dir)?.interrupted).toEqual({ signal: 'SIGINT', at: '2026-11-30T19:21:00.000Z' });
    expect(readdirSync(store.dir).sort()).toEqual(['logs', 'results.json', 'test.json']);
  });

  it('a failed run is a RunFailedError carrying its directory, exit 2, or 254 when the cause was bad input', () => {
    const store = RunStore.create(temp(), 'etcd-x', NOW);
    const plain = store.failed(new Error('lock client client1-1 was not ready within 30 s'));
    expect(plain).toBeInstanceOf(RunFailedError);
    expect(plain.runDir).toBe(store.dir);
    expect(plain.exitCode).toBe(2);
    expect(plain.message).toBe('the run failed: lock client client1-1 was not ready within 30 s');
    expect(store.failed(plain)).toBe(plain);
    const busy = store.failed(new ClusterBusyError(42, '/run/fencecheck/state.json'));
    expect(busy.exitCode).toBe(254);
    expect(busy.hint).toContain(store.dir);
  });
});

describe('writeFileAtomic', () => {
  it('replaces a file whole', () => {
    const dir = temp();
    const path = join(dir, 'test.json');
    writeFileAtomic(path, 'old\n');
    writeFileAtomic(path, 'new ✓\n');
    expect(readFileSync(path, 'utf8')).toBe('new ✓\n');
    expect(readdirSync(dir)).toEqual(['test.json']);
  });

  it('a full disk is a DiskFullError naming the file; the old content stays and no temporary file is left', () => {
    const dir = temp();
    const path = join(dir, 'results.json');
    writeFileSync(path, 'old\n');
    const full = {
      ...nodeIo,
      writeSync: () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    };
    let caught: unknown;
    try {
      writeFileAtomic(path, '{"valid": true}\n', { io: full });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DiskFullError);
    expect((caught as DiskFullError).message).toBe(`${path} was not written: no space left on the device`);
    expect((caught as DiskFullError).exitCode).toBe(254);
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['results.json']);
  });

  it('a short write is continued until every byte is written', () => {
    const dir = temp();
    const path = join(dir, 'test.json');
    const dribble = { ...nodeIo, writeSync: (fd: number, bytes: Uint8Array) => nodeIo.writeSync(fd, bytes.subarray(0, 3)) };
    writeFileAtomic(path, '{"name": "ünïcode"}\n', { io: dribble });
    expect(readFileSync(path, 'utf8')).toBe('{"name": "ünïcode"}\n');
  });
});

describe('RunStore.open: the readers of an existing run directory', () => {
  it('reads back test.json, plan.json and results.json as written; a run without them reads null, and requireTest names the file', () => {
    const store = RunStore.create(temp(), 'etcd-fence-claim-lock-counter', NOW);
    const opened = RunStore.open(store.dir);
    expect(opened.readTest()).toBeNull();
    expect(opened.readPlan()).toBeNull();
    expect(opened.readResults()).toBeNull();
    expect(() => opened.requireTest()).toThrow(`${join(store.dir, 'test.json')}: is missing`);
    const test = sampleTest(store.dir);
    const plan = planRun({ ...test, timeLimitS: 3, clients: 2 });
    store.writeTest(test);
    store.writePlan(plan);
    store.writeResults(sampleResults);
    expect(opened.readTest()).toEqual(test);
    expect(opened.readPlan()).toEqual(plan);
    expect(opened.readResults()).toEqual(readResultsJson(store.dir));
    // Nothing but the files and the logs directory: every temporary file renamed away.
    expect(readdirSync(store.dir).sort()).toEqual(['logs', 'plan.json', 'results.json', 'test.json']);
  });
});
