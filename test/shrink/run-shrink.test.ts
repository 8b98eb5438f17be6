/**
 * The shrink loop over the deterministic simulation (the real interpreter and
 * checkers; virtual time instead of a cluster): a failing run's plan comes
 * back from its directory and shrinks, every kept candidate failing in at
 * least k of K re-runs; bad input is a 254 with a hint.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FencecheckError } from '../../core/errors.js';
import { failedRunOptions, runShrink } from '../../src/shrink/run-shrink.js';
import { stepsLine } from '../../src/shrink/shrink-with-rule.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { planRun } from '../../core/plan/run-plan.js';
import { simHuntDeps } from '../hunt/sim-hunt-deps.js';
import { nearMiss } from '../hunt/near-miss-fixture.js';

const SAMPLE = new URL('../fixtures/runs/sample-run', import.meta.url).pathname;
const temp = (): string => madeTempDir('fc-shrink-');

describe('shrink, simulated', () => {
  it('shrinks a failing run and says so in the line scripts read', async () => {
    const before = failedRunOptions(SAMPLE);
    const shrinkDir = temp();
    const r = await runShrink({ runDir: SAMPLE, runs: 3, minFails: 2, maxCandidates: 25, shrinkDir }, simHuntDeps());
    expect(r.exitCode).toBe(1);
    // The rate with Wilson's 95 % interval (issue 33): `reproduced 2/2 (95% CI 34–100%)`.
    expect(r.lines[0]).toMatch(/^shrunk to \d+ fault events?, \d+ clients?, \d+ s; reproduced \d+\/\d+ \(95% CI \d+–\d+%\)$/);
    expect(r.reproduced.fails).toBeGreaterThanOrEqual(2);
    console.log(`[shrink simulated] ${r.lines[0]} (from ${before.script!.length} windows, ${before.clients} clients, ${before.timeLimitS} s): ${r.lines[4]}`);
    // The sample's 4 windows, 5 clients and 15 s shrink on every axis (simulated: 1 window, 3 clients, 7 s), and the line says so.
    expect(r.options.script!.length).toBeLessThan(before.script!.length);
    expect(r.options.clients).toBeLessThan(before.clients);
    expect(r.options.timeLimitS).toBeLessThan(before.timeLimitS);
    expect(r.lines[0]).toContain(
      `shrunk to ${r.options.script!.length} fault event${r.options.script!.length === 1 ? '' : 's'}, ${r.options.clients} client${r.options.clients === 1 ? '' : 's'}, ${r.options.timeLimitS} s;`,
    );
    expect(r.steps.length).toBeGreaterThan(0);
    expect(r.lines[2]).toMatch(/^replay: fencecheck run .* --script '\[.*\]' --seed \d+$/);
    const json = JSON.parse(readFileSync(join(shrinkDir, 'shrink.json'), 'utf8'));
    expect(json.shrunk).toEqual({ script: r.options.script, clients: r.options.clients, timeLimitS: r.options.timeLimitS, rate: r.options.rate });
    expect(json.rule).toEqual({ kind: 'fixed', K: 3, k: 2 });
  }, 120_000);

  it('on three lanes shrinks to the same plan as on one (a deterministic world), re-running side by side', async () => {
    const one = await runShrink({ runDir: SAMPLE, runs: 3, minFails: 2, maxCandidates: 25, shrinkDir: temp() }, simHuntDeps());
    const lanesUsed = new Set<number>();
    const sim = simHuntDeps();
    const three = await runShrink(
      { runDir: SAMPLE, runs: 3, minFails: 2, maxCandidates: 25, shrinkDir: temp() },
      { ...sim, lanes: 3, runTry: (o, h, lane) => (lanesUsed.add(lane ?? 0), sim.runTry(o, h)) },
    );
    expect(three.options.script).toEqual(one.options.script);
    expect([three.options.clients, three.options.timeLimitS]).toEqual([one.options.clients, one.options.timeLimitS]);
    expect(lanesUsed.size).toBeGreaterThan(1);
  }, 120_000);

  it('counts a re-run as failing only the way the original failed: with each sign it showed (a grant with no validity left)', async () => {
    // The sample run, plus one grant handed out with no validity left (what npm redlock does after a slow acquire).
    const dir = temp();
    cpSync(SAMPLE, dir, { recursive: true });
    const lines = readFileSync(join(dir, 'history.jsonl'), 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1)!) as { index: number; time: number };
    lines.push(JSON.stringify({ index: last.index + 1, time: last.time + 1, process: 7, type: 'invoke', f: 'acquire', value: null }));
    lines.push(JSON.stringify({ index: last.index + 2, time: last.time + 2, process: 7, type: 'ok', f: 'acquire', value: null, token: 99, validity_ms: -40 }));
    writeFileSync(join(dir, 'history.jsonl'), lines.join('\n') + '\n');
    const quiet = nearMiss({ doubleHolds: 1, lateWrites: 1 });
    const stub = (expiredGrants: number) => {
      const logged: string[] = [];
      let n = 0;
      const deps = {
        runTry: async () => ({ runDir: `/virtual/${n++}`, replay: 'r' }),
        readTry: async () => ({ outcome: 'unsafe' as const, miss: { ...quiet, expiredGrants } }),
        now: () => 0,
        log: (l: string) => void logged.push(l),
        stopped: () => false,
      };
      return { deps, logged };
    };
    // Every re-run fails, but as a late write with no expired grant: not the original's failure, so nothing reproduces it.
    const late = stub(0);
    const r1 = await runShrink({ runDir: dir, runs: 3, minFails: 2, maxCandidates: 5, shrinkDir: temp() }, late.deps);
    expect(r1.exitCode).toBe(2);
    expect(late.logged).toContain('shrink: a re-run counts as failing only with expiredGrants, as the original showed');
    // With the expired grant in every re-run, it shrinks.
    const same = stub(1);
    const r2 = await runShrink({ runDir: dir, runs: 3, minFails: 2, maxCandidates: 5, shrinkDir: temp() }, same.deps);
    expect(r2.exitCode).toBe(1);
  });

  it('refuses a directory that is not a run, and a run that did not fail, with 254 and a hint', () => {
    const notRun = temp();
    expect(() => failedRunOptions(notRun)).toThrow(FencecheckError);
    expect(() => failedRunOptions(notRun)).toThrow(/not a run directory/);
    const passed = temp();
    cpSync(SAMPLE, passed, { recursive: true });
    const results = JSON.parse(readFileSync(join(passed, 'results.json'), 'utf8'));
    writeFileSync(join(passed, 'results.json'), JSON.stringify({ ...results, valid: true, outcome: 'safe' }));
    try {
      failedRunOptions(passed);
      expect.unreachable();
    } catch (err) {
      expect((err as FencecheckError).exitCode).toBe(254);
      expect((err as FencecheckError).message).toMatch(/this run did not fail \(verdict true\); there is nothing to shrink/);
      expect((err as FencecheckError).hint).toMatch(/failing `fencecheck run`/);
    }
  });

  it("reads a seeded run's schedule back as the script it ran", () => {
    const o = failedRunOptions(SAMPLE);
    expect(o.script!.length).toBeGreaterThan(0);
    expect(o.nemesis).toEqual([...new Set(o.script!.map((w) => w.fault))]);
  });

  it('takes the options and windows from plan.json when the run stored its plan (what the run did, not a plan made again)', () => {
    const dir = temp();
    cpSync(SAMPLE, dir, { recursive: true });
    const o = failedRunOptions(SAMPLE);
    // A plan unlike the one test.json's options make now: one window, and the evict policy test.json never passed on.
    const script = [o.script![0]!];
    const plan = planRun({ ...o, name: 'stored', script, nemesis: [script[0]!.fault], evictPolicy: 'volatile-lru' });
    RunStore.open(dir).writePlan(plan);
    const { name: _name, ...stored } = plan.options;
    expect(failedRunOptions(dir)).toEqual({ ...stored, script: plan.windows, nemesis: [script[0]!.fault] });
  });

  it('reads a run from before plans were stored (no plan.json) from its test.json, to the same options', () => {
    const dir = temp();
    cpSync(SAMPLE, dir, { recursive: true });
    rmSync(join(dir, 'plan.json'));
    expect(failedRunOptions(dir)).toEqual(failedRunOptions(SAMPLE));
  });
});

describe("shrink's lines count what they say", () => {
  it('an interrupted shrink does not call its plan already minimal: its steps were not recorded', () => {
    expect(stepsLine({ steps: [], candidates: 10, exhausted: false, interrupted: true })).toBe(
      'steps: not recorded (interrupted: the kept candidates are in the lines above) (10 candidates)',
    );
    expect(stepsLine({ steps: [], candidates: 3, exhausted: false })).toBe('steps: none (already minimal) (3 candidates)');
  });

  /** Deps whose every re-run fails the same way; the log kept. */
  const alwaysFails = () => {
    const logged: string[] = [];
    let n = 0;
    const miss = nearMiss({ violation: true, doubleHolds: 1, lateWrites: 1 });
    const deps = {
      runTry: async () => ({ runDir: `/virtual/${n++}`, replay: 'r' }),
      readTry: async () => ({ outcome: 'unsafe' as const, miss }),
      now: () => 0,
      log: (l: string) => void logged.push(l),
      stopped: () => false,
    };
    return { deps, logged };
  };

  it("--max-candidates 6: at most 6 candidates, the original's re-run not among them, and the steps line counts the ones logged", async () => {
    const { deps, logged } = alwaysFails();
    const r = await runShrink({ runDir: SAMPLE, runs: 2, minFails: 1, maxCandidates: 6, shrinkDir: temp() }, deps);
    const candidates = logged.filter((l) => /^shrink: candidate \d+:/.test(l)).map((l) => Number(/candidate (\d+):/.exec(l)![1]));
    expect(logged.filter((l) => l.startsWith('shrink: the original plan:'))).toHaveLength(1);
    expect(candidates).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.lines.find((l) => l.startsWith('steps: '))).toMatch(/\(6 candidates, candidate budget spent\)$/);
  });

  it("the replay writes where the shrunk run came from (a hunt's try: the hunt's directory), not `--results results`", async () => {
    const dir = temp();
    cpSync(SAMPLE, dir, { recursive: true });
    const huntDir = join(temp(), 'hunt', 'redis-none-20261203T084211');
    const o = failedRunOptions(SAMPLE);
    RunStore.open(dir).writePlan(planRun({ ...o, resultsDir: huntDir, name: 'try-003' }));
    const { deps } = alwaysFails();
    const r = await runShrink({ runDir: dir, runs: 2, minFails: 1, maxCandidates: 2, shrinkDir: temp() }, deps);
    const replay = r.lines.find((l) => l.startsWith('replay: '))!;
    expect(replay).toContain(`--results ${huntDir}`);
    expect(replay).not.toContain('--results results');
  });
});

describe("shrink's sequential decision (no --runs, no --min-fails)", () => {
  /** Deps whose re-runs fail as `fails(n)` says for the n-th re-run (0-based); the log kept. */
  const deps = (fails: (n: number) => boolean) => {
    const logged: string[] = [];
    let n = 0;
    const miss = nearMiss({ violation: true, doubleHolds: 1, lateWrites: 1 });
    const unsafe = new Set<string>();
    return {
      logged,
      deps: {
        runTry: async () => {
          const runDir = `/virtual/${n}`;
          if (fails(n++)) unsafe.add(runDir);
          return { runDir, replay: 'r' };
        },
        readTry: async (runDir: string) => ({ outcome: unsafe.has(runDir) ? ('unsafe' as const) : ('safe' as const), miss }),
        now: () => 0,
        log: (l: string) => void logged.push(l),
        stopped: () => false,
      },
    };
  };

  it('a plan that always fails: the original settled in 4 re-runs, each candidate in 2, the shrunk plan to the bar its find met (4 of 5), the rate and its interval in the line and shrink.json', async () => {
    const { deps: d, logged } = deps(() => true);
    const shrinkDir = temp();
    const r = await runShrink({ runDir: SAMPLE, maxCandidates: 3, shrinkDir }, d);
    expect(r.exitCode).toBe(1);
    // A candidate is kept on 2 of 2; the plan the shrink ends on is re-run until it failed 4 times, as its find had.
    expect(r.lines[0]).toMatch(/; reproduced 4\/4 \(95% CI 51–100%\)$/);
    expect(logged).toContain('shrink: the shrunk plan re-run to the bar its find met (4 of 5 re-runs failing)');
    expect(logged.filter((l) => l.startsWith('shrink: the shrunk plan:'))).toEqual([expect.stringMatching(/: failed 4\/4 \(95% CI 51–100%\): reproducible$/)]);
    expect(logged.find((l) => l.startsWith('shrink: the original plan:'))).toMatch(/: failed 4\/4 \(95% CI 51–100%\): shrinking$/);
    expect(logged).toContain(
      'shrink: each candidate is re-run until it clearly fails about as often as the original (90%) or clearly less (23%), at most 12 times',
    );
    expect(logged.filter((l) => /^shrink: candidate \d+:/.test(l)).every((l) => l.endsWith(': failed 2/2 (95% CI 34–100%): kept'))).toBe(true);
    const json = JSON.parse(readFileSync(join(shrinkDir, 'shrink.json'), 'utf8'));
    expect(json.rule).toMatchObject({ kind: 'sequential', ratio: 4, maxRuns: 12 });
    expect(json.originalReproduced).toMatchObject({ fails: 4, of: 4, rate: 1 });
    expect(json.reproduced).toMatchObject({ fails: 4, of: 4, rate: 1, failingRun: expect.stringMatching(/^\/virtual\//) });
    expect(json.reproduced.interval.low).toBeCloseTo(0.51, 2);
  });

  it("the fixed rule's K and k are the user's word: its shrunk plan is not re-run past them", async () => {
    const { deps: d, logged } = deps(() => true);
    const r = await runShrink({ runDir: SAMPLE, runs: 3, minFails: 2, maxCandidates: 3, shrinkDir: temp() }, d);
    expect(r.lines[0]).toMatch(/; reproduced 2\/2 \(95% CI 34–100%\)$/);
    expect(logged.filter((l) => l.startsWith('shrink: the shrunk plan'))).toEqual([]);
  });

  it('a failure that shows in a third of the runs is shrunk, its rate said', async () => {
    // Every third re-run fails: the original 4 of 10, then candidates held to 1 in 3.
    const { deps: d, logged } = deps((n) => n % 3 === 2);
    const r = await runShrink({ runDir: SAMPLE, maxCandidates: 2, shrinkDir: temp() }, d);
    expect(logged.find((l) => l.startsWith('shrink: the original plan:'))).toMatch(/: failed 4\/12 \(95% CI 14–61%\): shrinking$/);
    expect(r.exitCode).toBe(1);
    expect(r.lines[0]).toMatch(/; reproduced \d+\/\d+ \(95% CI \d+–\d+%\)$/);
    // An original that never met 4 of 5 does not hold its shrunk plan to it.
    expect(logged.filter((l) => l.startsWith('shrink: the shrunk plan'))).toEqual([]);
  });

  it('a rare failure is first made to fail more often: a longer pause kept, the shrink then held to its rate (issue 33)', async () => {
    // The sample's pauses last 2.05-2.5 s; the world fails every time a pause lasts 4 s or more, else every third re-run.
    const logged: string[] = [];
    const unsafe = new Set<string>();
    let n = 0;
    const d = {
      runTry: async (o: { script?: { at: number; until: number }[] }) => {
        const runDir = `/virtual/${n}`;
        const long = (o.script ?? []).some((w) => w.until - w.at >= 4000);
        if (long || n % 3 === 2) unsafe.add(runDir);
        n++;
        return { runDir, replay: 'r' };
      },
      readTry: async (runDir: string) => ({
        outcome: unsafe.has(runDir) ? ('unsafe' as const) : ('safe' as const),
        miss: nearMiss({ violation: true, doubleHolds: 1, lateWrites: 1 }),
      }),
      now: () => 0,
      log: (l: string) => void logged.push(l),
      stopped: () => false,
    };
    const shrinkDir = temp();
    const r = await runShrink({ runDir: SAMPLE, maxCandidates: 30, shrinkDir }, d);
    expect(r.exitCode).toBe(1);
    expect(logged).toContain(
      'shrink: first making it fail more often (a longer fault, a wider delay or jump, one client fewer), each change kept only when it clearly fails more often (55%) than now (27%)',
    );
    expect(r.steps[0]!.step).toBe('more often: lengthen window 1');
    // Held to the boosted plan's rate, no candidate gave the long pause back; what is left fails every time.
    expect(r.options.script!.some((w) => w.until - w.at >= 4000)).toBe(true);
    expect(r.reproduced.fails).toBe(r.reproduced.of);
    const json = JSON.parse(readFileSync(join(shrinkDir, 'shrink.json'), 'utf8'));
    expect(json.originalReproduced.fails).toBeLessThan(json.originalReproduced.of);
    expect(json.steps[0].step).toBe('more often: lengthen window 1');
    console.log(`[shrink boost] ${r.lines[0]}; ${r.lines[4]}`);
  });

  it("under the fixed rule (--runs/--min-fails: the user's K and k) no boost is tried", async () => {
    const { deps: d, logged } = deps((n) => n % 3 === 2);
    await runShrink({ runDir: SAMPLE, runs: 6, minFails: 2, maxCandidates: 3, shrinkDir: temp() }, d);
    expect(logged.some((l) => l.includes('more often'))).toBe(false);
  });

  it('an original that never fails again is not shrunk, said with its rate 0/N (exit 2)', async () => {
    const { deps: d } = deps(() => false);
    const r = await runShrink({ runDir: SAMPLE, maxCandidates: 3, shrinkDir: temp() }, d);
    expect(r.exitCode).toBe(2);
    expect(r.reproduced).toEqual({ fails: 0, of: 15 });
    expect(r.lines[0]).toBe('not shrunk: the original plan reproduced 0/15 (95% CI 0–20%): too rare to confirm a smaller plan (at least 2 of 16 needed)');
    expect(r.lines[1]).toMatch(/^Hint: /);
  });
});
