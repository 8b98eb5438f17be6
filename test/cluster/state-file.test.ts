import { madeTempDir } from '../support/temp-dirs.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addUnique, StateFile, type ClusterState } from '../../runtime/hosts/state-file.js';

function initial(): ClusterState {
  return {
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    runDir: '/r',
    subnet: '10.77.0.0/24',
    owner: { pid: 1, comm: 'node', startTime: 2, detached: false },
    namespaces: [],
    rootLinks: [],
    processes: [],
    nftTables: [],
    dataDirs: [],
  };
}

describe('StateFile', () => {
  it('writes on create and on every update, and reads back', () => {
    const dir = madeTempDir('fc-state-');
    const path = join(dir, 'nested', 'cluster.json');
    const file = StateFile.create(path, initial());
    file.update((s) => addUnique(s.namespaces, 'fc-sw'));
    file.update((s) => addUnique(s.namespaces, 'fc-sw'));
    file.update((s) => s.processes.push({ pid: 10, comm: 'etcd', startTime: 3, name: 'etcd1', stopSignal: 'SIGTERM', graceMs: 500 }));
    expect(StateFile.read(path)?.namespaces).toEqual(['fc-sw']);
    expect(JSON.parse(readFileSync(path, 'utf8')).processes[0].name).toBe('etcd1');
    expect(StateFile.discard(path)).toBe(true);
    expect(StateFile.discard(path)).toBe(false);
    expect(StateFile.read(path)).toBeUndefined();
  });

  it('treats an unreadable file as no state', () => {
    expect(StateFile.read('/nonexistent/fc/cluster.json')).toBeUndefined();
  });
});
