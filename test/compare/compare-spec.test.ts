/** Cells, not-applicable reasons, the seed-major run list and sharding, all pure. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lockRows, matrixCells, parseNemesisLabel, planRuns, rowOfLabel, runOptionsFor, sameSpec } from '../../src/compare/compare-spec.js';
import { parseClientList } from '../../runtime/runner/client-registry.js';
import { formatShard, inShard, parseShard } from '../../src/compare/shard.js';
import { spec } from './fixture-runs.js';

describe('compare spec', () => {
  it('makes every cell backend-major and says why the ones that cannot run cannot', () => {
    const cells = matrixCells(['redis', 'redlock', 'etcd'], ['none', 'fence'], ['client-pause', 'clock']);
    expect(cells.map((c) => c.id).slice(0, 4)).toEqual(['redis/none/client-pause', 'redis/none/clock', 'redis/fence/client-pause', 'redis/fence/clock']);
    const na = Object.fromEntries(cells.filter((c) => c.notApplicable).map((c) => [c.id, c.notApplicable]));
    expect(Object.keys(na)).toEqual(['redlock/fence/client-pause', 'redlock/fence/clock', 'etcd/none/clock', 'etcd/fence/clock']);
    expect(na['redlock/fence/clock']).toMatch(/no monotonic fencing token/);
    expect(na['etcd/none/clock']).toMatch(/ignores LD_PRELOAD/);
  });

  it('--lock-clients: each client a row on each backend it runs on; its token kind decides n/a; its command goes to the run', () => {
    const clients = parseClientList('builtin,simple-redis-mutex,etcd3-lock,/usr/bin/python3 mine.py', '/opt/fc');
    const s = spec({ backends: ['redis', 'etcd'], resources: ['none', 'fence-claim'], nemeses: ['client-pause'], seeds: [1], clients });
    expect(lockRows(s).map((r) => r.label)).toEqual(['redis', 'etcd', 'simple-redis-mutex@redis', 'etcd3-lock@etcd', 'cmd1@redis', 'cmd1@etcd']);
    const cells = matrixCells(lockRows(s), s.resources, s.nemeses);
    const na = Object.fromEntries(cells.filter((c) => c.notApplicable).map((c) => [c.id, c.notApplicable]));
    // etcd3-lock announces unique tokens (its lease id); a command line is planned by the backend's own kind.
    expect(na).toEqual({
      'etcd3-lock@etcd/fence-claim/client-pause':
        'etcd3-lock announces unique tokens, and the resource mode fence-claim needs a monotonic fencing token (use none, cas-unique, cas-unique-nonatomic, version or for-update)',
    });
    expect(planRuns(s).map((r) => r.id)).toContain('simple-redis-mutex@redis/fence-claim/client-pause#1');
    const byId = new Map(cells.map((c) => [c.id, c]));
    expect(runOptionsFor(s, byId.get('redis/none/client-pause')!, 1, '/r').client).toBeUndefined();
    expect(runOptionsFor(s, byId.get('cmd1@etcd/none/client-pause')!, 1, '/r')).toMatchObject({ backend: 'etcd', client: '/usr/bin/python3 mine.py', seed: 1 });
    expect(runOptionsFor(s, byId.get('simple-redis-mutex@redis/fence-claim/client-pause')!, 1, '/r')).toMatchObject({
      backend: 'redis',
      resource: 'fence-claim',
      client: `${process.execPath} /opt/fc/clients/node/simple-redis-mutex.mjs`,
    });
    // Without clients, the rows are the backends: every earlier comparison plans exactly as before.
    expect(lockRows(spec()).map((r) => r.label)).toEqual(['redis', 'redlock']);
  });

  it('reads a row back from its label (a run directory found by --merge)', () => {
    expect(rowOfLabel('redis')).toEqual({ label: 'redis', backend: 'redis', client: null, token: null });
    expect(rowOfLabel('simple-redis-mutex@redis')).toEqual({
      label: 'simple-redis-mutex@redis',
      backend: 'redis',
      client: 'simple-redis-mutex',
      token: 'monotonic',
    });
    expect(rowOfLabel('cmd2@etcd')).toEqual({ label: 'cmd2@etcd', backend: 'etcd', client: 'cmd2', token: null });
  });

  it('reads nemesis columns: none, one fault, faults joined by +', () => {
    expect(parseNemesisLabel('none')).toEqual([]);
    expect(parseNemesisLabel('partition+kill')).toEqual(['partition', 'kill']);
    expect(() => parseNemesisLabel('partiton')).toThrow('Expected `--nemeses` to list none or faults among');
  });

  it('lists runs seed-major over applicable cells, with stable ids and indexes', () => {
    const runs = planRuns(spec());
    // redis: none and fence x client-pause and kill = 4 cells; redlock: none only (fence n/a) = 2 cells.
    expect(runs.map((r) => `${r.index} ${r.id}`)).toEqual([
      '0 redis/none/client-pause#1',
      '1 redis/none/kill#1',
      '2 redis/fence/client-pause#1',
      '3 redis/fence/kill#1',
      '4 redlock/none/client-pause#1',
      '5 redlock/none/kill#1',
      '6 redis/none/client-pause#2',
      '7 redis/none/kill#2',
      '8 redis/fence/client-pause#2',
      '9 redis/fence/kill#2',
      '10 redlock/none/client-pause#2',
      '11 redlock/none/kill#2',
    ]);
  });

  it('gives each run its options, with its own results directory', () => {
    const s = spec();
    const cell = matrixCells(['etcd'], ['fence-claim'], ['partition+kill'])[0]!;
    const o = runOptionsFor(s, cell, 7, '/tmp/x');
    expect(o).toMatchObject({ backend: 'etcd', resource: 'fence-claim', nemesis: ['partition', 'kill'], seed: 7, resultsDir: '/tmp/x', timeLimitS: 10 });
  });

  it('compares specs regardless of key order', () => {
    const a = spec();
    const b = JSON.parse(
      JSON.stringify({ run: a.run, workload: a.workload, seeds: a.seeds, nemeses: a.nemeses, resources: a.resources, backends: a.backends }),
    ) as typeof a;
    expect(sameSpec(a, b)).toBe(true);
    expect(sameSpec(a, spec({ seeds: [1, 2, 3] }))).toBe(false);
  });
});

describe('shards', () => {
  it('parses i/N and refuses anything else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(formatShard({ index: 2, count: 4 })).toBe('2/4');
    for (const bad of ['0/4', '5/4', '2', '1/0', 'a/b', '-1/2']) expect(() => parseShard(bad)).toThrow('Expected `--shard` to be i/N');
  });

  it('puts run k in shard k mod N + 1', () => {
    const runs = planRuns(spec());
    expect(runs.filter((r) => inShard(r.index, { index: 1, count: 4 })).map((r) => r.index)).toEqual([0, 4, 8]);
    expect(runs.filter((r) => inShard(r.index, { index: 4, count: 4 })).map((r) => r.index)).toEqual([3, 7, 11]);
    expect(runs.filter((r) => inShard(r.index, null))).toHaveLength(12);
  });

  it('property: the shards of any N partition the run list exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 12 }), (total, count) => {
        for (let k = 0; k < total; k++) {
          const owners = Array.from({ length: count }, (_, i) => i + 1).filter((index) => inShard(k, { index, count }));
          if (owners.length !== 1) return false;
        }
        return true;
      }),
      { seed: 42 },
    );
  });
});
