import { describe, expect, it } from 'vitest';
import { nemesisSchedule } from '../../core/generator/nemesis-schedule.js';
import { DEFAULTS, replayCommand, type RunOptions } from '../../core/plan/run-options.js';
import { sentinelGrudge } from '../../runtime/runner/sentinel-faults.js';
import { leaderBackendOf, systemClientOptions, systemClusterOptions } from '../../core/systems/registry.js';

const DATA = ['rs1', 'rs2', 'rs3'];
const SENTINELS = ['sentinel1', 'sentinel2', 'sentinel3'];

describe('sentinel partitions', () => {
  it('master-from-replicas cuts the master off from its replicas only', () => {
    expect(sentinelGrudge('master-from-replicas', 'rs2', DATA, SENTINELS, ['c1', 'c2'])).toEqual({ rs1: ['rs2'], rs2: ['rs1', 'rs3'], rs3: ['rs2'] });
  });

  it('master-with-minority puts the master with the first floor(n/2) clients against everyone else', () => {
    const g = sentinelGrudge('master-with-minority', 'rs1', DATA, SENTINELS, ['c1', 'c2']);
    expect(g['rs1']).toEqual(['c2', 'rs2', 'rs3', 'sentinel1', 'sentinel2', 'sentinel3']);
    expect(g['c1']).toEqual(g['rs1']);
    expect(g['c2']).toEqual(['c1', 'rs1']);
    expect(g['sentinel3']).toEqual(['c1', 'rs1']);
    expect(sentinelGrudge('master-with-minority', 'rs3', DATA, SENTINELS, ['c1', 'c2', 'c3', 'c4', 'c5'])['rs3']).toEqual([
      'c3',
      'c4',
      'c5',
      'rs1',
      'rs2',
      'sentinel1',
      'sentinel2',
      'sentinel3',
    ]);
  });
});

describe('run hooks', () => {
  const run = (o: Partial<RunOptions>): RunOptions => ({ ...DEFAULTS, backend: 'redis-sentinel', resource: 'none', workload: 'lock-counter', ...o });

  it('pass WAIT to the clients and min-replicas to the cluster, for redis-sentinel only', () => {
    expect(systemClientOptions(run({ waitReplicas: 1 }))).toEqual({ waitReplicas: 1 });
    expect(systemClusterOptions(run({ minReplicas: 1 }))).toEqual({ redisSentinel: { minReplicas: 1, minReplicasMaxLagS: 1 } });
    expect(systemClientOptions(run({ backend: 'redis', waitReplicas: 1 }))).toEqual({});
    expect(systemClusterOptions(run({ backend: 'etcd', minReplicas: 1 }))).toEqual({});
    expect(leaderBackendOf('redis-sentinel')).toBe('redis-sentinel');
    expect(leaderBackendOf('redis')).toBeUndefined();
  });

  it('replay the options (other backends ignore them, as they ignore --redis-persistence)', () => {
    expect(replayCommand(run({ waitReplicas: 1, minReplicas: 2 }))).toContain('--wait-replicas 1 --min-replicas 2 --seed 1');
    expect(replayCommand(run({ backend: 'redis', waitReplicas: 1 }))).not.toContain('--wait-replicas');
  });

  it('aim server faults at the master as at a leader', () => {
    const targets = { nodes: [...DATA, ...SENTINELS], server: 'master' };
    const windows = nemesisSchedule({ faults: ['kill', 'server-pause'], intervalMs: 1000, durationMs: 1000, targets }, 1, 10_000);
    expect(windows.length).toBeGreaterThan(0);
    for (const w of windows) expect(w.target).toEqual({ kind: 'leader' });
  });
});
