import { describe, expect, it } from 'vitest';
import { parallelLanes } from '../../src/cli/parallel-flag.js';
import { UsageError } from '../../core/errors.js';

const twoCores = { cores: 2, memoryMb: 24_000 };

describe('--parallel', () => {
  it('defaults to one cluster a core and says so', () => {
    expect(parallelLanes(undefined, undefined, twoCores)).toEqual({
      lanes: 2,
      said: 'parallel 2 (the default on this machine: 2 cores, 23.4 GB free; --parallel N for another)',
    });
    expect(parallelLanes(undefined, undefined, { cores: 1, memoryMb: 800 }).lanes).toBe(1);
  });

  it("a batch of groups (compare's backends) defaults to a lane a group, within what the machine affords, and says why", () => {
    expect(parallelLanes(undefined, undefined, twoCores, 4)).toEqual({
      lanes: 4,
      said: 'parallel 4 (a lane a backend, each keeping its cluster, 4 at most on this machine: 2 cores, 23.4 GB free; --parallel N for another)',
    });
    expect(parallelLanes(undefined, undefined, twoCores, 7).lanes).toBe(4);
    // Never below one a core: two backends on two cores are two lanes, and so is one backend.
    expect(parallelLanes(undefined, undefined, twoCores, 1).lanes).toBe(2);
    expect(parallelLanes(undefined, undefined, { cores: 2, memoryMb: 3 * 1024 }, 4).lanes).toBe(3);
    expect(parallelLanes(undefined, undefined, { cores: 2, memoryMb: 2 * 1024 }, 4).lanes).toBe(2);
    // Asked, it is what was asked.
    expect(parallelLanes(1, undefined, twoCores, 4).lanes).toBe(1);
  });

  it("a search that keeps each lane's cluster warm for every try (hunt, shrink) defaults to what the machine affords, and says why", () => {
    expect(parallelLanes(undefined, undefined, twoCores, 'warm')).toEqual({
      lanes: 4,
      said: 'parallel 4 (each lane keeping its cluster warm for every try, 4 at most on this machine: 2 cores, 23.4 GB free; --parallel N for another)',
    });
    // Memory bounds it, as it bounds what may be asked: 3 GB free is three clusters, 1 GB one.
    expect(parallelLanes(undefined, undefined, { cores: 2, memoryMb: 3 * 1024 }, 'warm').lanes).toBe(3);
    expect(parallelLanes(undefined, undefined, { cores: 2, memoryMb: 1024 }, 'warm')).toMatchObject({
      lanes: 1,
      said: expect.stringMatching(/^parallel 1 \(the default/),
    });
    expect(parallelLanes(2, undefined, twoCores, 'warm').lanes).toBe(2);
  });

  it('takes what the machine affords and refuses more with 254 and a hint, never a starved run', () => {
    expect(parallelLanes(4, undefined, twoCores).lanes).toBe(4);
    const refused = (() => {
      try {
        parallelLanes(5, undefined, twoCores);
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).exitCode).toBe(254);
    expect((refused as UsageError).message).toBe('Expected `--parallel` to be at most 4 on this machine (2 cores, 23.4 GB free), got `5`');
    // Memory bounds it too: 3 GB free affords 3 clusters whatever the cores.
    expect(() => parallelLanes(4, undefined, { cores: 16, memoryMb: 3 * 1024 })).toThrow(/at most 3 on this machine/);
  });

  it('runs the containers provider one cluster at a time: its default is 1, more is a usage error', () => {
    expect(parallelLanes(undefined, 'containers', twoCores).lanes).toBe(1);
    expect(parallelLanes(1, 'containers', twoCores).lanes).toBe(1);
    expect(() => parallelLanes(2, 'containers', twoCores)).toThrow(/Expected `--parallel 1` with `--provider containers`/);
  });
});
