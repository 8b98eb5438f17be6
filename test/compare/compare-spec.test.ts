/** Cells, not-applicable reasons, the seed-major run list and sharding, all pure. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matrixCells, parseNemesisLabel, planRuns, runOptionsFor, sameSpec } from '../../src/compare/compare-spec.js';
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
    const b = JSON.parse(JSON.stringify({ run: a.run, workload: a.workload, seeds: a.seeds, nemeses: a.nemeses, resources: a.resources, backends: a.backends })) as typeof a;
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
