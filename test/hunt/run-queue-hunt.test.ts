/**
 * The queue hunt's loop over simulated tries (no cluster; each try's outcome drawn from its options and name,
 * seeded): a failure that needs a stall twice the lock is found, re-run until 4 of 5 fail, reported with its
 * rate, replay and run, and ends the hunt; a rare failure (3 in 10) is kept and the hunt goes on, unless
 * --first; clean tested tries stop --until-ruled-out 5 % at 59; tries that test nothing say UNTESTED (3); the
 * same with two lanes; a bad input (254) from a try ends the hunt with it. hunt.json holds every try.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, UsageError } from '../../core/errors.js';
import { stringHash } from '../../core/checkers/string-hash.js';
import { Prng } from '../../core/random/prng.js';
import { MATRIX_SETTINGS } from '../../core/queue/queue-matrix.js';
import type { QueueRunOptions } from '../../core/queue/queue-options.js';
import { runQueueHunt, type QueueHuntDeps, type QueueHuntOptions, type QueueTryRun } from '../../src/hunt/run-queue-hunt.js';
import { queueHuntOutcome, type QueueTryRecord } from '../../src/hunt/queue-hunt-outcome.js';
import { testSeed } from '../support/seed.js';

const BASE: QueueRunOptions = { backend: 'redis', client: 'bullmq', resource: 'none', nemesis: ['client-pause'], ...MATRIX_SETTINGS, resultsDir: 'results' };

/** A verdict as a queue run's results say it: unsafe with duplicated jobs, safe or untested. */
function verdict(outcome: 'unsafe' | 'safe' | 'untested'): QueueTryRun['results'] {
  const stats = { done: 40, duplicated: outcome === 'unsafe' ? 2 : 0, lost: 0, redelivered: outcome === 'untested' ? 0 : 2, wasted: 0 };
  return { outcome, checkers: [{ checker: 'total-queue', stats }] };
}

/** Simulated tries: `failRate(options)` the chance a run fails (drawn from its name and seed), else safe (or untested). */
function simDeps(failRate: (o: QueueRunOptions) => number, lanes = 1, otherwise: 'safe' | 'untested' = 'safe'): QueueHuntDeps & { runs: QueueRunOptions[] } {
  let clock = 0;
  const runs: QueueRunOptions[] = [];
  return {
    runs,
    lanes,
    runTry: async (o) => {
      runs.push(o);
      clock += 20_000;
      await new Promise((r) => setTimeout(r, 1));
      const fails = new Prng(stringHash(`${o.name}|${o.seed}`) >>> 0).float() < failRate(o);
      return { runDir: join(o.resultsDir, o.name ?? 'run'), replay: `fencecheck run --seed ${o.seed}`, results: verdict(fails ? 'unsafe' : otherwise) };
    },
    now: () => clock,
    log: () => undefined,
    stopped: () => false,
  };
}

function options(over: Partial<QueueHuntOptions> = {}): QueueHuntOptions {
  const huntDir = madeTempDir('fc-queue-hunt-');
  return {
    base: BASE,
    faults: ['client-pause', 'client-kill'],
    budget: { runs: 200 },
    seed: testSeed('queue hunt loop', 'test/hunt/run-queue-hunt.test.ts'),
    huntDir,
    keepGoing: false,
    first: false,
    ...over,
  };
}

const stallTwiceTheLock = (o: QueueRunOptions): number => (o.nemesis.includes('client-pause') && o.durationMs >= 2 * o.lockMs ? 1 : 0);

describe('the queue hunt', () => {
  it('finds a failure that needs a stall twice the lock, confirms it 4 of 5 and stops there', async () => {
    const o = options();
    const deps = simDeps(stallTwiceTheLock);
    const report = await runQueueHunt(o, deps);
    expect(report.exitCode).toBe(EXIT.invalid);
    const find = report.found!.record;
    expect(find.choices.faults).toContain('client-pause');
    expect(find.choices.durationMs).toBeGreaterThanOrEqual(2 * BASE.lockMs);
    expect(find.reproduced).toMatchObject({ fails: 4, of: 4, errors: 0 });
    expect(report.records.at(-1)).toBe(find);
    // Every try before the find tested the queue and held; the re-runs are the find's options again.
    expect(report.records.slice(0, -1).every((r) => r.outcome === 'safe')).toBe(true);
    const tryName = `try-${String(find.choices.index + 1).padStart(3, '0')}`;
    expect(deps.runs.filter((r) => r.name?.startsWith(`${tryName}-confirm-`))).toHaveLength(4);
    expect(report.lines[0]).toMatch(/^VIOLATION: 1 of \d+ tries violated; the first on try \d+/);
    expect(report.lines.join('\n')).toMatch(/2 of 40 jobs done twice or more/);
    expect(report.lines.join('\n')).toMatch(/reproduced 4\/4 .*a reproducible find/);
    expect(report.lines).toContain(`shrink: fencecheck shrink ${find.runDir}`);
    const json = JSON.parse(readFileSync(join(o.huntDir, 'hunt.json'), 'utf8'));
    expect(json.tries).toHaveLength(report.records.length);
    expect(json.exitCode).toBe(EXIT.invalid);
  });

  it('keeps a rare failure and goes on (the budget ends it), or stops at it with --first', async () => {
    const rare = (): number => 0.3;
    const goOn = await runQueueHunt(options({ budget: { runs: 12 } }), simDeps(rare));
    const found = goOn.records.filter((r) => r.outcome === 'unsafe');
    expect(found.length).toBeGreaterThan(1);
    expect(found.every((r) => r.reproduced !== undefined && r.reproduced.fails < 4)).toBe(true);
    expect(goOn.records).toHaveLength(12);
    expect(goOn.lines.join('\n')).toMatch(/a RARE failure/);
    const first = await runQueueHunt(options({ budget: { runs: 12 }, first: true }), simDeps(rare));
    expect(first.records.at(-1)!.outcome).toBe('unsafe');
    expect(first.records.filter((r) => r.outcome === 'unsafe')).toHaveLength(1);
  });

  it('stops --until-ruled-out 5 % at 59 clean tested tries, and says the weight', async () => {
    const report = await runQueueHunt(
      options({ untilRuledOut: 0.05 }),
      simDeps(() => 0),
    );
    expect(report.records).toHaveLength(59);
    expect(report.exitCode).toBe(EXIT.valid);
    expect(report.lines.join('\n')).toMatch(/no violation in 59 tries, 118 dangerous moments tested: a failure that shows in at least 5\.0 % of tries/);
    expect(report.lines.at(-1)).toBe('until-ruled-out 5.0 %: reached with 59 tested tries');
  });

  it('tries that never hand a job out twice are UNTESTED (3), never safe', async () => {
    const report = await runQueueHunt(
      options({ budget: { runs: 5 } }),
      simDeps(() => 0, 1, 'untested'),
    );
    expect(report.exitCode).toBe(EXIT.untested);
    expect(report.lines[0]).toMatch(/^UNTESTED: 5 tries, none put the queue to the test/);
  });

  it('two lanes find the same failure', async () => {
    const report = await runQueueHunt(options(), simDeps(stallTwiceTheLock, 2));
    expect(report.exitCode).toBe(EXIT.invalid);
    expect(report.found!.record.reproduced!.fails).toBeGreaterThanOrEqual(4);
  });

  it('names a try by its number as the log did, though lanes end tries out of order', () => {
    const record = (index: number, outcome: 'unsafe' | 'safe'): QueueTryRecord => ({
      choices: { index, faults: ['client-pause'], durationMs: 4000, intervalMs: 2000, workers: 2, seed: index },
      windows: 1,
      runDir: `/r/try-00${index + 1}`,
      replay: 'r',
      outcome,
      signs: outcome === 'unsafe' ? ['duplicated'] : [],
      failure: outcome === 'unsafe' ? '1 of 40 jobs done twice or more' : null,
      redelivered: 1,
      error: null,
      endedAtMs: 30_000,
    });
    const out = queueHuntOutcome([record(1, 'unsafe'), record(0, 'safe')], false);
    expect(out.lines[0]).toMatch(/the first on try 2 after 30s \(runs-to-detection 1,/);
    expect(out.found!.tryNumber).toBe(2);
  });

  it('a bad input from a try ends the hunt with it', async () => {
    const deps = simDeps(() => 0);
    deps.runTry = async () => {
      throw new UsageError('Expected a queue library', 'name one');
    };
    await expect(runQueueHunt(options(), deps)).rejects.toThrow(/Expected a queue library/);
  });
});
