/**
 * Integration (real servers, root): `fencecheck up --keep` leaves a warm
 * cluster, the next `fencecheck run` adopts it (the same Redis server, reset
 * and checked first, test.json says not fresh) and keeps it again, and so does
 * the one after; a run whose
 * cluster options differ replaces it (test.json says why) and keeps the
 * replacement; `fencecheck down` ends it and nothing is left. Needs `npm run
 * build` first (the CLI runs from dist/).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultStateFile, projectRoot } from '../../runtime/hosts/paths.js';
import { StateFile } from '../../runtime/hosts/state-file.js';
import { isSameProcess } from '../../runtime/hosts/process-info.js';
import { keptOf } from '../../runtime/cluster/kept-cluster.js';
import { cliPath, leftovers, NOTHING_LEFT } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-kept-'));
const cli = (args: string[]) => execa(process.execPath, [cliPath(), ...args], { reject: false, all: true, timeout: 180_000 });
afterAll(async () => {
  await cli(['down', '--force']);
  rmSync(resultsDir, { recursive: true, force: true });
}, 120_000);

const RUN = [
  'run',
  '--backend',
  'redis',
  '--resource',
  'fence',
  '--nemesis',
  'client-pause@holder-read',
  '--time-limit',
  '3',
  '--clients',
  '2',
  '--ttl-ms',
  '1000',
  '--interval-ms',
  '1000',
  '--duration-ms',
  '1500',
  '--recover-ms',
  '500',
  '--busy-timeout-ms',
  '90000',
];

/** The one run directory under `dir` (results/<name>/<stamp>), and its test.json's cluster record. */
function clusterRecordOf(stdout: string): Record<string, unknown> {
  const runDir = /^run: (.+)$/m.exec(stdout)?.[1];
  expect(runDir, stdout).toBeTruthy();
  return (JSON.parse(readFileSync(join(runDir!, 'test.json'), 'utf8')) as { cluster: Record<string, unknown> }).cluster;
}

const redisServer = () => StateFile.read(defaultStateFile())?.processes.find((p) => p.name === 'redis1');

describe('a kept cluster', () => {
  it('up --keep, then runs that adopt it, replace it when they need another, and down', async () => {
    const up = await cli(['up', '--keep', '--backend', 'redis', '--client', 'c1', '--busy-timeout-ms', '90000', '--run-dir', join(resultsDir, 'up')]);
    expect(up.exitCode, up.all).toBe(0);
    expect(up.stdout).toContain('kept warm');
    const server = redisServer();
    expect(server).toBeTruthy();
    expect(keptOf(StateFile.read(defaultStateFile()))?.options.backends).toEqual(['redis', 'postgres']);

    const first = await cli([...RUN, '--results', join(resultsDir, 'first')]);
    expect(first.stderr, first.all).toContain('adopted the cluster kept by `fencecheck up --keep`');
    expect([0, 1, 3]).toContain(first.exitCode);
    expect(clusterRecordOf(first.stdout)).toMatchObject({ fresh: false, reusedAfterRuns: 0, cleanCheck: { ok: true } });
    // The same server process served it, and is still there, kept after one run.
    expect(redisServer()?.pid).toBe(server!.pid);
    expect(isSameProcess(server!)).toBe(true);
    const kept = StateFile.read(defaultStateFile());
    expect(kept?.owner.detached).toBe(true);
    expect(keptOf(kept)?.runs).toBe(1);

    // Again: the next command adopts it after the first one's run (its clients ended, its faults healed by the reset).
    const second = await cli([...RUN, '--results', join(resultsDir, 'second')]);
    expect(second.stderr, second.all).toContain('adopted the cluster kept by `fencecheck up --keep` (');
    expect(clusterRecordOf(second.stdout)).toMatchObject({ fresh: false, reusedAfterRuns: 1, cleanCheck: { ok: true } });
    expect(redisServer()?.pid).toBe(server!.pid);
    expect(keptOf(StateFile.read(defaultStateFile()))?.runs).toBe(2);

    const other = await cli([...RUN, '--redis-persistence', 'aof-always', '--results', join(resultsDir, 'other')]);
    expect([0, 1, 3], other.all).toContain(other.exitCode);
    const record = clusterRecordOf(other.stdout);
    expect(record['fresh']).toBe(true);
    expect(record['freshBecause']).toBe(
      'the cluster kept by `fencecheck up --keep` does not fit this run (redis persistence: kept none, the run needs aof-always)',
    );
    expect(isSameProcess(server!)).toBe(false);
    // The replacement is kept in its place, with what it was started with.
    expect(keptOf(StateFile.read(defaultStateFile()))?.options.redis).toEqual({ persistence: 'aof-always' });

    const recorded = StateFile.read(defaultStateFile())!.processes;
    const down = await cli(['down']);
    expect(down.exitCode, down.all).toBe(0);
    expect(StateFile.read(defaultStateFile())).toBeUndefined();
    expect(await leftovers(recorded)).toEqual(NOTHING_LEFT);
    expect(readdirSync(resultsDir).sort()).toEqual(['first', 'other', 'second', 'up']);
  }, 420_000);
});
