/**
 * A hunt on several lanes (`--parallel N`, issue 30): N clusters each test the search's next plan at once, a
 * find's confirmation re-runs go first for the lanes and run side by side, and the hunt ends once its find is
 * reproducible (the lanes' tries under way are recorded, none started after). Deps with a virtual clock whose
 * runs end after a few ticks, so that lanes really overlap; the simulation for a real search's find.
 */
import { describe, expect, it } from 'vitest';
import { runHunt, type HuntDeps, type HuntOptions } from '../../src/hunt/run-hunt.js';
import type { NearMiss } from '../../src/hunt/near-miss.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { nearMiss } from './near-miss-fixture.js';
import { simHuntDeps } from './sim-hunt-deps.js';

const options = (over: Partial<HuntOptions> = {}): HuntOptions => ({
  target: { backend: 'redis', resource: 'none', workload: 'lock-counter' },
  faults: ['client-pause'],
  budget: { runs: 30 },
  seed: 1,
  huntDir: madeTempDir('fc-parallel-hunt-'),
  keepGoing: false,
  shape: { timeLimitS: 6, clients: 3, ttlMs: 500 },
  ...over,
});

const MISS: NearMiss = nearMiss({ violation: true, doubleHolds: 1, lateWrites: 1 });
const QUIET: NearMiss = { ...MISS, violation: false, doubleHolds: 0, lateWrites: 0 };
const tick = () => new Promise((r) => setTimeout(r, 0));

/**
 * Deps on `lanes` lanes: a try is unsafe when its name is in `failing` (and so are its re-runs); each run takes
 * `ticks(name)` ticks (3 by default).
 */
function laned(lanes: number, failing: (name: string) => boolean, ticks: (name: string) => number = () => 3) {
  const seen = { runs: [] as { name: string; lane: number }[], most: 0, events: [] as string[] };
  let busy = 0;
  const deps: HuntDeps = {
    lanes,
    runTry: async (o, _hooks, lane = 0) => {
      seen.runs.push({ name: o.name ?? '?', lane });
      seen.most = Math.max(seen.most, ++busy);
      seen.events.push(`start ${o.name}`);
      for (let i = 0; i < ticks(o.name ?? '?'); i++) await tick();
      seen.events.push(`end ${o.name}`);
      busy--;
      return { runDir: `/virtual/${o.name}`, replay: 'r' };
    },
    readTry: async (runDir) => (failing(runDir.slice('/virtual/'.length)) ? { outcome: 'unsafe', miss: MISS } : { outcome: 'safe', miss: QUIET }),
    now: () => seen.runs.length * 1000,
    log: () => undefined,
    stopped: () => false,
  };
  return { deps, seen };
}

describe('a hunt on several lanes', () => {
  it('tests one plan a lane at once, each lane its own cluster', async () => {
    const { deps, seen } = laned(3, () => false);
    const r = await runHunt(options({ budget: { runs: 9 } }), deps);
    expect(r.records).toHaveLength(9);
    expect(seen.most).toBe(3);
    expect(new Set(seen.runs.map((x) => x.lane))).toEqual(new Set([0, 1, 2]));
    // Every plan the search gave was tried once, none twice.
    expect(r.records.map((t) => t.plan.index).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("confirms a find on the lanes side by side, ends at a reproducible one, and records the lanes' tries under way", async () => {
    // The fourth try's plan fails every time (and its re-runs, which carry its name).
    const { deps, seen } = laned(3, (name) => name.startsWith('try-004'));
    const r = await runHunt(options(), deps);
    expect(r.found?.tryNumber).toBe(4);
    const confirms = seen.runs.filter((x) => x.name.includes('-confirm-'));
    // 4 of 5 with three lanes: the fifth may start while three are under way (one of them could still pass), never a sixth.
    expect(r.found?.record.reproduced?.fails).toBe(confirms.length);
    expect(confirms.length).toBeGreaterThanOrEqual(4);
    expect(confirms.length).toBeLessThanOrEqual(5);
    expect(new Set(confirms.map((x) => x.lane)).size).toBeGreaterThan(1);
    // No try started once the find was confirmed: every try that ran is recorded.
    const tries = seen.runs.filter((x) => !x.name.includes('-confirm-'));
    expect(r.records).toHaveLength(tries.length);
    expect(tries.length).toBeLessThan(30);
  });

  it("stops a second find's confirmation once the first find ended the hunt: its re-runs under way count, no more start", async () => {
    // Both first tries fail every time; the second's plan runs slowly (its try 4 ticks, each re-run 30), so its
    // confirmation is under way when the first's (3 ticks a re-run) reaches 4 of 5.
    const slow = (name: string) => (name.startsWith('try-002-confirm-') ? 30 : name.startsWith('try-002') ? 4 : 3);
    const lines: string[] = [];
    const { deps, seen } = laned(2, (name) => name.startsWith('try-001') || name.startsWith('try-002'), slow);
    const r = await runHunt(options(), { ...deps, log: (l) => lines.push(l) });
    expect(r.found?.tryNumber).toBe(1);
    expect(r.found?.record.reproduced).toMatchObject({ fails: 4, of: 4 });
    const second = r.records.find((t) => t.plan.index === 1)!;
    const secondConfirms = seen.runs.filter((x) => x.name.startsWith('try-002-confirm-'));
    // Before: the second went on to its own 4 of 5, its last re-run started after the first's fourth had ended.
    const decidedAt = seen.events.indexOf('end try-001-confirm-4');
    expect(decidedAt).toBeGreaterThan(-1);
    expect(seen.events.slice(decidedAt).filter((e) => e.startsWith('start '))).toEqual([]);
    expect(secondConfirms.length).toBeGreaterThan(0);
    expect(secondConfirms.length).toBeLessThan(4);
    expect(second.reproduced?.of).toBe(secondConfirms.length);
    expect(lines.some((l) => /^hunt: try 2 reproduced .*undecided: its re-runs were stopped, the hunt having ended/.test(l))).toBe(true);
    // Each progress state said once: the second lane's end of its stopped confirmation says no count again.
    // (Before: `try 2 done · … stopped at the violation`, then `try 2 done · … ETA` from the second lane.)
    const progress = lines.filter((l) => / done · /.test(l)).map((l) => ({ done: Number(/^hunt: try (\d+)/.exec(l)![1]), stopped: l.includes('stopped at') }));
    expect(progress.length).toBeGreaterThan(0);
    for (const [i, p] of progress.entries()) {
      const before = progress.slice(0, i);
      const newState = before.every((q) => q.done < p.done) || (p.stopped && before.every((q) => !q.stopped));
      expect(newState, JSON.stringify(progress)).toBe(true);
    }
    // The find stays the first: a confirmation stopped at 1 of 1 or 2 of 2 ranks below the rule's 4 of 4.
    expect(r.lines.join('\n')).toMatch(/reproduced 4\/4 \(95% CI [^)]*\) re-runs: a reproducible find/);
  });

  it("with the simulation's real search, finds what one lane finds", async () => {
    const one = await runHunt(options({ seed: 7 }), simHuntDeps());
    const three = await runHunt(options({ seed: 7 }), { ...simHuntDeps(), lanes: 3 });
    expect(one.found).not.toBeNull();
    expect(three.found).not.toBeNull();
    expect(three.found!.record.reproduced!.fails).toBeGreaterThanOrEqual(4);
    expect(three.found!.record.reproduced!.fails).toBe(three.found!.record.reproduced!.of);
  });
});
