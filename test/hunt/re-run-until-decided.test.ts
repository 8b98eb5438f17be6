import { describe, expect, it } from 'vitest';
import { Lanes } from '../../src/hunt/lanes.js';
import { reRunUntilDecided } from '../../src/hunt/re-run-until-decided.js';
import { decideFixed } from '../../src/hunt/sequential-decision.js';
import { Prng } from '../../core/random/prng.js';

const SEED = Number(process.env['FC_SEED'] ?? 20261205);
const fourOfFive = (t: { fails: number; of: number }) => decideFixed(5, 4, t);
const tick = () => new Promise((r) => setTimeout(r, 0));

/** A re-run that fails by `outcomes[n-1]`, ending after `delays[n-1]` ticks, noting the most lanes used at once. */
function fake(outcomes: readonly boolean[], delays: readonly number[] = []) {
  let busy = 0;
  const seen = { most: 0, started: 0, lanes: new Set<number>() };
  const reRun = async (n: number, lane: number) => {
    seen.started++;
    seen.lanes.add(lane);
    seen.most = Math.max(seen.most, ++busy);
    for (let i = 0; i < (delays[n - 1] ?? 1); i++) await tick();
    busy--;
    return { failed: outcomes[n - 1] ?? false, runDir: `run-${n}` };
  };
  return { reRun, seen };
}

describe('reRunUntilDecided', () => {
  it('with one lane is the plain loop: stops at the 4th failure of 4', async () => {
    const { reRun, seen } = fake([true, true, true, true, true]);
    const r = await reRunUntilDecided({ fails: 0, of: 0, failingRun: null }, fourOfFive, reRun, { lanes: new Lanes(1), stopped: () => false });
    expect(r).toEqual({ tally: { fails: 4, of: 4, failingRun: 'run-1' }, verdict: 'keep' });
    expect(seen).toMatchObject({ most: 1, started: 4 });
  });

  it('starts the re-runs the rule needs if they end as the runs so far did, no more: 4 of 5 starts four at once', async () => {
    const { reRun, seen } = fake([false, false, true, true, true]);
    const r = await reRunUntilDecided({ fails: 0, of: 0, failingRun: null }, fourOfFive, reRun, { lanes: new Lanes(8), stopped: () => false });
    // Four failures would keep it, so four start at once (not a fifth, though lanes are free); two passes drop it.
    expect(r.verdict).toBe('drop');
    expect([seen.started, seen.most]).toEqual([4, 4]);
  });

  it('goes on from earlier re-runs and never starts more than the rule needs', async () => {
    const { reRun, seen } = fake([true, true, false]);
    const r = await reRunUntilDecided({ fails: 2, of: 2, failingRun: 'earlier' }, fourOfFive, reRun, { lanes: new Lanes(4), stopped: () => false });
    // 4 of 5 from 2 of 2: two more failures keep it, so two start, not a third.
    expect(seen.started).toBe(2);
    expect(r).toEqual({ tally: { fails: 4, of: 4, failingRun: 'earlier' }, verdict: 'keep' });
  });

  it('a guess that proves wrong starts the next re-run when the rule needs it', async () => {
    const { reRun, seen } = fake([true, false, true, true, true]);
    const r = await reRunUntilDecided({ fails: 0, of: 0, failingRun: null }, fourOfFive, reRun, { lanes: new Lanes(2), stopped: () => false });
    expect(r).toEqual({ tally: { fails: 4, of: 5, failingRun: 'run-1' }, verdict: 'keep' });
    expect(seen.started).toBe(5);
  });

  it('decides as the plain loop would on the same outcomes, whatever the lanes and the order they end in (seeded)', async () => {
    const rng = new Prng(SEED);
    console.log(`[re-run-until-decided] seed ${SEED} (replay: FC_SEED=${SEED} npx vitest run test/hunt/re-run-until-decided.test.ts)`);
    for (let i = 0; i < 200; i++) {
      const p = rng.float();
      const outcomes = Array.from({ length: 5 }, () => rng.float() < p);
      const lanes = rng.int(1, 5);
      const delays = outcomes.map(() => rng.int(1, 4));
      const serial = await reRunUntilDecided({ fails: 0, of: 0, failingRun: null }, fourOfFive, fake(outcomes).reRun, {
        lanes: new Lanes(1),
        stopped: () => false,
      });
      const parallel = await reRunUntilDecided({ fails: 0, of: 0, failingRun: null }, fourOfFive, fake(outcomes, delays).reRun, {
        lanes: new Lanes(lanes),
        stopped: () => false,
      });
      // A fixed k of K: the verdict depends on the outcomes only, never on their order.
      expect(parallel.verdict, `outcomes ${outcomes.join(',')} on ${lanes} lanes`).toBe(serial.verdict);
      expect(parallel.tally.of).toBeGreaterThanOrEqual(serial.tally.of);
    }
  });

  it('waits for the re-runs under way when one throws, then throws', async () => {
    let ended = 0;
    const reRun = async (n: number) => {
      await tick();
      if (n === 1) throw new Error('cluster would not start');
      await tick();
      ended++;
      return { failed: true, runDir: `run-${n}` };
    };
    await expect(reRunUntilDecided({ fails: 0, of: 0, failingRun: null }, fourOfFive, reRun, { lanes: new Lanes(3), stopped: () => false })).rejects.toThrow(
      'cluster would not start',
    );
    expect(ended).toBe(2);
  });

  it('starts nothing once stopped, and says undecided', async () => {
    let stop = false;
    const { reRun, seen } = fake([true, true, true, true]);
    const r = await reRunUntilDecided(
      { fails: 0, of: 0, failingRun: null },
      fourOfFive,
      async (n, lane) => {
        stop = true;
        return reRun(n, lane);
      },
      { lanes: new Lanes(1), stopped: () => stop },
    );
    expect(r.verdict).toBe('undecided');
    expect(seen.started).toBe(1);
  });
});

describe('Lanes', () => {
  it('serves a higher priority first, the same priority in order, on the lowest free lane', async () => {
    const lanes = new Lanes(1);
    const order: string[] = [];
    let release!: () => void;
    const first = lanes.use(() => new Promise<void>((r) => (release = r)));
    await tick();
    const a = lanes.use(async (l) => void order.push(`a@${l}`));
    const b = lanes.use(async (l) => void order.push(`b@${l}`), 1);
    const c = lanes.use(async (l) => void order.push(`c@${l}`));
    release();
    await Promise.all([first, a, b, c]);
    expect(order).toEqual(['b@0', 'a@0', 'c@0']);
    expect(() => new Lanes(0)).toThrow(RangeError);
  });
});
