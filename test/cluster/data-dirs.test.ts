import { describe, expect, it } from 'vitest';
import { removableDataDirs } from '../../runtime/cluster/data-dirs.js';
import { sharedDataDir } from '../../runtime/hosts/paths.js';

describe('removableDataDirs', () => {
  const runDir = '/work/results/etcd-none-lock-counter/20260101T000000';
  it("keeps the run's data dirs and PostgreSQL's under the system temp dir", () => {
    const dirs = [`${runDir}/data/etcd1`, `${sharedDataDir(runDir)}/pg1`];
    expect(removableDataDirs({ runDir, dataDirs: dirs })).toEqual(dirs);
  });

  it('refuses anything else a damaged or edited state file names', () => {
    const dirs = ['/', '/etc', `${runDir}/logs`, `${runDir}/data/../../x`, `${runDir}/data`, 'data/etcd1', `${sharedDataDir('/other/run')}/pg1`];
    expect(removableDataDirs({ runDir, dataDirs: dirs })).toEqual([]);
    expect(removableDataDirs({ runDir: 'relative/run', dataDirs: ['relative/run/data/etcd1'] })).toEqual([]);
  });
});
