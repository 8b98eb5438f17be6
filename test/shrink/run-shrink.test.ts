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
import { RunStore } from '../../runtime/store/run-store.js';
import { planRun } from '../../core/plan/run-plan.js';
import { simHuntDeps } from '../hunt/sim-hunt-deps.js';

const SAMPLE = new URL('../fixtures/runs/sample-run', import.meta.url).pathname;
const temp = (): string => madeTempDir('fc-shrink-');

describe('shrink, simulated', () => {
  it('shrinks a failing run and says so in the line scripts read', async () => {
    const before = failedRunOptions(SAMPLE);
    const shrinkDir = temp();
    const r = await runShrink({ runDir: SAMPLE, runs: 3, minFails: 2, maxCandidates: 25, shrinkDir }, simHuntDeps());
    expect(r.exitCode).toBe(1);
    expect(r.lines[0]).toMatch(/^shrunk to \d+ fault events?, \d+ clients?, \d+ s; reproduced \d+\/\d+$/);
    expect(r.reproduced.fails).toBeGreaterThanOrEqual(2);
    expect(r.options.script!.length).toBeLessThanOrEqual(before.script!.length);
    expect(r.options.clients).toBeLessThanOrEqual(before.clients);
    expect(r.steps.length).toBeGreaterThan(0);
    console.log(`[shrink simulated] ${r.lines[0]} (from ${before.script!.length} windows, ${before.clients} clients, ${before.timeLimitS} s): ${r.lines[4]}`);
    expect(r.lines[2]).toMatch(/^replay: fencecheck run .* --script '\[.*\]' --seed \d+$/);
    const json = JSON.parse(readFileSync(join(shrinkDir, 'shrink.json'), 'utf8'));
    expect(json.shrunk).toEqual({ script: r.options.script, clients: r.options.clients, timeLimitS: r.options.timeLimitS, rate: r.options.rate });
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
    const quiet = { violation: false, applied: 1, triggered: 1, doubleHolds: 1, refusals: 0, pausedGrants: 0, lateWrites: 1, sessionLateWrites: 0, lostGrants: 0, tokenRegressions: 0, expiredGrants: 0, sleptGrants: 0, validDoubleHolds: 0 };
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

  it('reads a seeded run\'s schedule back as the script it ran', () => {
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

describe('shrink\'s lines count what they say', () => {
  /** Deps whose every re-run fails the same way; the log kept. */
  const alwaysFails = () => {
    const logged: string[] = [];
    let n = 0;
    const miss = { violation: true, applied: 1, triggered: 1, doubleHolds: 1, refusals: 0, pausedGrants: 0, lateWrites: 1, sessionLateWrites: 0, lostGrants: 0, tokenRegressions: 0, expiredGrants: 0, sleptGrants: 0, validDoubleHolds: 0, foreignReleases: 0 };
    const deps = {
      runTry: async () => ({ runDir: `/virtual/${n++}`, replay: 'r' }),
      readTry: async () => ({ outcome: 'unsafe' as const, miss }),
      now: () => 0,
      log: (l: string) => void logged.push(l),
      stopped: () => false,
    };
    return { deps, logged };
  };

  it('--max-candidates 6: at most 6 candidates, the original\'s re-run not among them, and the steps line counts the ones logged', async () => {
    const { deps, logged } = alwaysFails();
    const r = await runShrink({ runDir: SAMPLE, runs: 2, minFails: 1, maxCandidates: 6, shrinkDir: temp() }, deps);
    const candidates = logged.filter((l) => /^shrink: candidate \d+:/.test(l)).map((l) => Number(/candidate (\d+):/.exec(l)![1]));
    expect(logged.filter((l) => l.startsWith('shrink: the original plan:'))).toHaveLength(1);
    expect(candidates).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.lines.find((l) => l.startsWith('steps: '))).toMatch(/\(6 candidates, candidate budget spent\)$/);
  });

  it('the replay writes where the shrunk run came from (a hunt\'s try: the hunt\'s directory), not `--results results`', async () => {
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
