/**
 * A find confirmed before it is reported (src/hunt/confirm-find.ts, issue 33): the violating try's plan re-run
 * until 4 of 5 re-runs fail as it did, or cannot. Scripted deps (each runTry's outcome in order), so the rare
 * and the reproducible cases are exact: a rare find is kept and the hunt goes on to a reproducible one, which
 * becomes the find; --first stops at the rare one and says so; the sim hunt's finds reproduce every time.
 */
import { describe, expect, it } from 'vitest';
import { runHunt, type HuntDeps, type HuntOptions } from '../../src/hunt/run-hunt.js';
import { confirmationVerdict } from '../../src/hunt/confirm-find.js';
import type { NearMiss } from '../../src/hunt/near-miss.js';
import { madeTempDir } from '../support/temp-dirs.js';
import { simHuntDeps } from './sim-hunt-deps.js';
import { nearMiss } from './near-miss-fixture.js';

const options = (over: Partial<HuntOptions> = {}): HuntOptions => ({
  target: { backend: 'redis', resource: 'none', workload: 'lock-counter' },
  faults: ['client-pause'],
  budget: { runs: 20 },
  seed: 1,
  huntDir: madeTempDir('fc-confirm-'),
  keepGoing: false,
  shape: { timeLimitS: 6, clients: 3, ttlMs: 500 },
  ...over,
});

const MISS: NearMiss = nearMiss({ violation: true, doubleHolds: 1, lateWrites: 1 });
const QUIET: NearMiss = { ...MISS, violation: false, doubleHolds: 0, lateWrites: 0 };

/** Deps whose n-th run (tries and re-runs alike, in order) is unsafe when `script[n]` is 'x', safe otherwise; the run names kept. */
function scripted(script: string): { deps: HuntDeps; names: string[]; logged: string[] } {
  const names: string[] = [];
  const logged: string[] = [];
  let n = 0;
  let clock = 0;
  const deps: HuntDeps = {
    runTry: async (o) => {
      names.push(o.name ?? '?');
      clock += 5000;
      return { runDir: `/virtual/${n++}`, replay: 'r' };
    },
    readTry: async (runDir) => (script[Number(runDir.split('/').pop())] === 'x' ? { outcome: 'unsafe', miss: MISS } : { outcome: 'safe', miss: QUIET }),
    now: () => clock,
    log: (l) => void logged.push(l),
    stopped: () => false,
  };
  return { deps, names, logged };
}

describe('a find confirmed before it is reported', () => {
  it('the rule: 4 of 5 re-runs, decided as soon as it can be', () => {
    expect(confirmationVerdict({ fails: 4, of: 4 })).toBe('keep');
    expect(confirmationVerdict({ fails: 1, of: 3 })).toBe('drop');
    expect(confirmationVerdict({ fails: 3, of: 4 })).toBe('undecided');
  });

  it('a rare find (1 of 3 re-runs) is kept, the hunt goes on, and a reproducible later one (4 of 4) is the find', async () => {
    // try 1 fails; its re-runs: fail, pass, pass (1 of 3: 4 of 5 out of reach); try 2 passes; try 3 fails; its re-runs fail 4 times.
    const { deps, names, logged } = scripted('xx..' + '.' + 'x' + 'xxxx');
    const r = await runHunt(options(), deps);
    expect(r.records.map((t) => t.outcome)).toEqual(['unsafe', 'safe', 'unsafe']);
    expect(r.records[0]!.reproduced).toMatchObject({ fails: 1, of: 3 });
    expect(r.records[2]!.reproduced).toMatchObject({ fails: 4, of: 4 });
    expect(names.filter((n) => n.includes('-confirm-'))).toHaveLength(7);
    expect(logged).toContain('hunt: try 1 reproduced 1/3 (95% CI 6–79%): a rare failure; looking on for a more reproducible one');
    expect(r.found!.tryNumber).toBe(3);
    // Runs- and time-to-detection stay the first violation's.
    expect(r.lines[0]).toMatch(/^VIOLATION: 2 of 3 tries violated; the first on try 1 after /);
    expect(r.lines).toContain('  the find: try 3, the most reproducible of them');
    expect(r.lines.some((l) => /^ {2}reproduced 4\/4 \(95% CI \d+–100%\) re-runs: a reproducible find$/.test(l))).toBe(true);
    expect(r.lines).toContain('shrink: fencecheck shrink /virtual/5');
  });

  it('--first stops at the first find, rare or not, and says it is rare', async () => {
    const { deps } = scripted('xx..' + 'x' + 'xxxx');
    const r = await runHunt(options({ first: true }), deps);
    expect(r.records).toHaveLength(1);
    expect(r.lines.some((l) => l.includes('reproduced 1/3') && l.includes('a RARE failure (below 4 of 5)'))).toBe(true);
    expect(r.exitCode).toBe(1);
  });

  it('a hunt whose only finds are rare ends with the most reproducible of them, said to be rare', async () => {
    // Every try fails; every re-run set is 1 of 3, except try 2's, 2 of 4.
    const { deps } = scripted('xx..' + 'xx.x.' + 'xx..');
    const r = await runHunt(options({ budget: { runs: 3 } }), deps);
    expect(r.records.map((t) => t.reproduced && `${t.reproduced.fails}/${t.reproduced.of}`)).toEqual(['1/3', '2/4', '1/3']);
    expect(r.found!.tryNumber).toBe(2);
    expect(r.lines.some((l) => l.includes('reproduced 2/4') && l.includes('RARE'))).toBe(true);
  });

  it("the simulated hunt's find reproduces on every re-run (the simulation is deterministic)", async () => {
    const r = await runHunt(options({ seed: 1 }), simHuntDeps());
    const find = r.found!.record;
    expect(find.reproduced).toMatchObject({ fails: 4, of: 4 });
  }, 60_000);
});

describe("the shrink goes on from the hunt's re-runs of the find", () => {
  it('4 of 4 re-runs already made: the original is not run again; the first run is a candidate', async () => {
    const { runShrink } = await import('../../src/shrink/run-shrink.js');
    const sample = new URL('../fixtures/runs/sample-run', import.meta.url).pathname;
    const { deps, names, logged } = scripted('x'.repeat(200));
    const r = await runShrink(
      {
        runDir: sample,
        maxCandidates: 2,
        shrinkDir: madeTempDir('fc-confirm-shrink-'),
        originalRuns: { fails: 4, of: 4, failingRun: '/virtual/hunt-confirm-1' },
      },
      deps,
    );
    expect(logged).toContain("shrink: the original plan's 4 re-runs by the hunt count (failed 4/4 (95% CI 51–100%))");
    expect(names.some((n) => n.startsWith('candidate-000'))).toBe(false);
    expect(names[0]).toMatch(/^candidate-001/);
    expect(r.exitCode).toBe(1);
  });
});

describe('hunt --until-ruled-out P', () => {
  it('stops once the clean tested tries rule out P (5 %: 59 of them), and says so', async () => {
    const { deps, logged } = scripted('.'.repeat(200));
    const r = await runHunt(options({ budget: { runs: 100 }, untilRuledOut: 0.05 }), deps);
    expect(r.records).toHaveLength(59);
    expect(logged).toContain('hunt: 59 clean tested tries rule out any failure that shows in at least 5.0 % of tries; stopping (--until-ruled-out)');
    expect(r.lines).toContain('until-ruled-out 5.0 %: reached with 59 tested tries');
    expect(r.exitCode).toBe(0);
  });

  it('a budget that ends first: says how far it got and how many more tries it would take', async () => {
    const { deps } = scripted('.'.repeat(200));
    const r = await runHunt(options({ budget: { runs: 20 }, untilRuledOut: 0.05 }), deps);
    expect(r.records).toHaveLength(20);
    expect(r.lines).toContain(
      'until-ruled-out 5.0 %: NOT reached: 20 of the 59 tested tries it takes (20 tries, 100 % of them tested); about 39 more tries at this rate',
    );
  });

  it('a violation is never "ruled out"', async () => {
    const { deps } = scripted('x' + 'xxxx' + '.'.repeat(200));
    const r = await runHunt(options({ budget: { runs: 100 }, untilRuledOut: 0.05 }), deps);
    expect(r.exitCode).toBe(1);
    expect(r.lines.some((l) => l.startsWith('until-ruled-out'))).toBe(false);
  });
});
