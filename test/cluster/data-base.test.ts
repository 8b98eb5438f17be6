/**
 * Where PostgreSQL's data goes: tmpfs (/dev/shm) for the namespaces provider
 * when it is one with room, the system temp dir for the containers provider
 * (whose daemon mounts those paths) and wherever /dev/shm is not roomy tmpfs.
 */
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { fastDataBase, nodeDataDir, providerDataBase, sharedDataDir, sharedDataDirs } from '../../runtime/hosts/paths.js';

const roomyTmpfs = ((): boolean => {
  try {
    const fs = statfsSync('/dev/shm');
    return fs.type === 0x01021994 && fs.bavail * fs.bsize >= 1024 ** 3;
  } catch {
    return false;
  }
})();

describe('the data base', () => {
  it(`is /dev/shm on a machine whose /dev/shm is a roomy tmpfs, else the temp dir (here: ${roomyTmpfs ? 'roomy tmpfs' : 'not'})`, () => {
    expect(fastDataBase()).toBe(roomyTmpfs ? '/dev/shm' : tmpdir());
  });

  it("is the temp dir for the containers provider and the fast base for the namespaces provider's", () => {
    expect(providerDataBase('containers')).toBe(tmpdir());
    expect(providerDataBase(undefined)).toBe(fastDataBase());
  });

  it("puts PostgreSQL's data dir under the base given, and keeps root's servers in the run dir", () => {
    const run = '/work/results/r/20261206T000000';
    expect(nodeDataDir(run, { name: 'pg1', backend: 'postgres' }, '/dev/shm')).toBe(`${sharedDataDir(run, '/dev/shm')}/pg1`);
    expect(nodeDataDir(run, { name: 'etcd1', backend: 'etcd' }, '/dev/shm')).toBe(`${run}/data/etcd1`);
    expect(sharedDataDirs(run)).toEqual([...new Set([sharedDataDir(run), sharedDataDir(run, fastDataBase())])]);
  });
});
