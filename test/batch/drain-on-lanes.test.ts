/**
 * The lanes' choice of runs: a lane keeps its group, a new one goes to the
 * largest group no other lane is on, and a lane joins another's group
 * rather than sit idle; one lane keeps the order given. Each fake run
 * yields a millisecond, so two lanes' runs interleave as real ones do.
 */
import { describe, expect, it } from 'vitest';
import { drainOnLanes, nextItemIndex } from '../../src/batch/drain-on-lanes.js';

describe('nextItemIndex', () => {
  it("keeps the lane's own group while it has runs queued", () => {
    expect(nextItemIndex(['a', 'b', 'b', 'a'], 'a', ['b'])).toBe(0);
    expect(nextItemIndex(['b', 'b', 'a'], 'a', ['b'])).toBe(2);
  });

  it('takes the largest group no other lane is on; ties to the group queued first', () => {
    expect(nextItemIndex(['a', 'a', 'b', 'c', 'c', 'c'], undefined, [])).toBe(3);
    expect(nextItemIndex(['a', 'a', 'b', 'c', 'c', 'c'], undefined, ['c'])).toBe(0);
    expect(nextItemIndex(['a', 'b', 'b', 'c', 'c'], 'z', ['a'])).toBe(1);
  });

  it("joins the other lanes' group with the most runs queued per lane on it, only when it has more runs queued than lanes", () => {
    expect(nextItemIndex(['a', 'a', 'b', 'b', 'b'], 'z', ['a', 'b'])).toBe(2);
    expect(nextItemIndex(['a', 'a', 'a', 'b', 'b'], 'z', ['a', 'a', 'b'])).toBe(3);
    expect(nextItemIndex(['a', 'a'], undefined, ['a'])).toBe(0);
    expect(nextItemIndex(['a'], undefined, ['a'])).toBe(-1);
    expect(nextItemIndex(['a', 'a'], 'z', ['a', 'a'])).toBe(-1);
  });
});

/** Each lane's runs, how many times a lane changed group (a cluster start), and the order runs began in. */
async function drained(items: string[], lanes: number): Promise<{ byLane: string[][]; starts: number; order: string[] }> {
  const byLane: string[][] = Array.from({ length: lanes }, () => []);
  const order: string[] = [];
  let starts = 0;
  await drainOnLanes(
    items,
    lanes,
    (i) => i,
    async (item, lane) => {
      if (byLane[lane]!.at(-1) !== item) starts++;
      byLane[lane]!.push(item);
      order.push(item);
      // Runs of one lane interleave with the other's: each yields as a real run would.
      await new Promise((r) => setTimeout(r, 1));
    },
  );
  return { byLane, starts, order };
}

describe('drainOnLanes', () => {
  it("splits the groups between two lanes: each cluster starts once a group, not once a lane's switch", async () => {
    const items = ['redis', 'redis', 'redis', 'redlock', 'redlock', 'etcd', 'etcd', 'etcd', 'zk', 'zk', 'zk'];
    const { byLane, starts, order } = await drained(items, 2);
    expect(order.sort()).toEqual([...items].sort());
    expect(starts).toBe(4);
    for (const groups of byLane) expect(groups.length).toBeGreaterThanOrEqual(5);
  });

  it('runs in the order given on one lane', async () => {
    const items = ['b', 'a', 'a', 'c', 'c', 'c'];
    expect((await drained(items, 1)).order).toEqual(items);
  });

  it('joins a group another lane is on while it has more runs queued than lanes, and leaves the last run to that lane', async () => {
    const { byLane } = await drained(['a', 'a', 'a', 'a'], 2);
    expect(byLane.map((l) => l.length)).toEqual([2, 2]);
    const uneven = await drained(['a', 'a', 'a', 'b'], 2);
    expect(uneven.byLane.flat().sort()).toEqual(['a', 'a', 'a', 'b']);
  });

  it('leaves no run behind when lanes end early: every run is run once', async () => {
    const items = ['a', 'b', 'b', 'c', 'a', 'c', 'c', 'd'];
    for (const lanes of [2, 3, 4]) expect((await drained(items, lanes)).order.sort()).toEqual([...items].sort());
  });

  it("a lane's error stops the others after their run and is thrown once all have ended", async () => {
    const ran: string[] = [];
    const failing = drainOnLanes(
      ['a', 'b', 'a', 'b', 'a'],
      2,
      (i) => i,
      async (item, lane) => {
        ran.push(`${lane}:${item}`);
        await new Promise((r) => setTimeout(r, lane === 0 ? 1 : 5));
        if (lane === 0) throw new Error('bad input');
      },
    );
    await expect(failing).rejects.toThrow('bad input');
    expect(ran).toHaveLength(2);
  });
});
