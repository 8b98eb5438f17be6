import { madeTempDir } from '../support/temp-dirs.js';
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removableDataDirs, removeDataDirs, removeDataDirsSync } from '../../runtime/cluster/data-dirs.js';
import type { ClusterState } from '../../runtime/hosts/state-file.js';
import { fastDataBase, sharedDataDir } from '../../runtime/hosts/paths.js';

describe('removableDataDirs', () => {
  const runDir = '/work/results/etcd-none-lock-counter/20260101T000000';
  it("keeps the run's data dirs and PostgreSQL's under the system temp dir or the fast base (tmpfs)", () => {
    const dirs = [`${runDir}/data/etcd1`, `${sharedDataDir(runDir)}/pg1`, `${sharedDataDir(runDir, fastDataBase())}/pgl1`];
    expect(removableDataDirs({ runDir, dataDirs: dirs })).toEqual(dirs);
  });

  it('refuses anything else a damaged or edited state file names', () => {
    const dirs = [
      '/',
      '/etc',
      `${runDir}/logs`,
      `${runDir}/data/../../x`,
      `${runDir}/data`,
      'data/etcd1',
      `${sharedDataDir('/other/run')}/pg1`,
      `${sharedDataDir('/other/run', fastDataBase())}/pg1`,
    ];
    expect(removableDataDirs({ runDir, dataDirs: dirs })).toEqual([]);
    expect(removableDataDirs({ runDir: 'relative/run', dataDirs: ['relative/run/data/etcd1'] })).toEqual([]);
  });
});

describe('removeDataDirs', () => {
  it.each([
    ['async', removeDataDirs],
    ['sync', async (st: ClusterState) => removeDataDirsSync(st)],
  ] as const)(
    '(%s) removes the recorded dirs and the partial copies a killed maker left beside them (`<dir>.tmp-<pid>`), then the shared dir; nothing else',
    async (_how, remove) => {
      const runDir = madeTempDir('fc-datadirs-run-');
      const shared = sharedDataDir(runDir);
      const template = join(shared, 'pg-initdb-template');
      const partial = `${template}.tmp-26602`;
      const other = join(shared, 'not-ours');
      for (const d of [join(runDir, 'data', 'etcd1'), partial, other]) mkdirSync(d, { recursive: true });
      writeFileSync(join(partial, 'PG_VERSION'), '15\n');
      try {
        const state = { runDir, dataDirs: [join(runDir, 'data', 'etcd1'), join(shared, 'pg1'), template] } as unknown as ClusterState;
        expect((await remove(state)).sort()).toEqual([join(runDir, 'data', 'etcd1'), partial].sort());
        expect(existsSync(partial)).toBe(false);
        // A dir no record names and that is no record's partial copy stays (and so does the shared dir holding it).
        expect(existsSync(other)).toBe(true);
        rmSync(other, { recursive: true });
        expect(await remove(state)).toEqual([]);
        expect(existsSync(shared)).toBe(false);
      } finally {
        rmSync(runDir, { recursive: true, force: true });
        rmSync(shared, { recursive: true, force: true });
      }
    },
  );
});
