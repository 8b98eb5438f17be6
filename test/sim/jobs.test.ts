/**
 * The jobs workload simulated (simulate-run.ts: the real plan, interpreter,
 * resource SQL and checkers on virtual time): single Redis under the seeded
 * client pause, one 3 s pause per 2 s quiet, over five seeds. Without a fence
 * the paused holders' records land twice (duplicates), and the jobs checker
 * counts exactly the jobs the truth saw applied twice; fence-claim and the
 * version column refuse every stale record (wasted runs, no duplicate).
 */
import { describe, expect, it } from 'vitest';
import type { RunOptions } from '../../core/plan/run-options.js';
import { analyseRun } from '../../core/analyse/analyse-run.js';
import { simulateRun, type SimulatedRun } from './simulate-run.js';

const base: RunOptions = {
  backend: 'redis',
  resource: 'none',
  workload: 'jobs',
  nemesis: ['client-pause'],
  timeLimitS: 20,
  clients: 2,
  ttlMs: 1000,
  seed: 1,
  holdMs: 200,
  rate: 2,
  intervalMs: 2000,
  durationMs: 3000,
  recoverMs: 1000,
  callTimeoutMs: 500,
  nemesisTarget: 'random',
  redisPersistence: 'none',
  resultsDir: 'unused',
  checkHold: false,
};
const SEEDS = [1, 2, 3, 4, 5];

/** Jobs the resource really recorded done twice or more: applied writes of one value. */
function trulyDuplicated(run: SimulatedRun): number {
  const applied = new Map<string, number>();
  for (const w of run.truth.writes) applied.set(w.value, (applied.get(w.value) ?? 0) + 1);
  return [...applied.values()].filter((n) => n > 1).length;
}

async function jobsOf(resource: RunOptions['resource'], seed: number) {
  const run = await simulateRun({ ...base, resource, seed });
  const checked = analyseRun(run.history, run.plan.options);
  const jobs = checked.verdicts.find((v) => v.checker === 'jobs')!;
  return { run, checked, jobs, stats: jobs.stats! };
}

describe('the jobs workload, simulated', () => {
  it('without a fence, paused holders run jobs twice; the checker counts what the truth saw', async () => {
    let duplicates = 0;
    for (const seed of SEEDS) {
      const { run, checked, jobs, stats } = await jobsOf('none', seed);
      expect(checked.deciding).toContain('jobs');
      expect(stats.faultsApplied).toBeGreaterThan(0);
      // Acknowledged duplicates are applied duplicates; an indeterminate write could only add to the truth's.
      if (stats.maybeRuns === 0) expect(stats.duplicates).toBe(trulyDuplicated(run));
      else expect(stats.duplicates).toBeLessThanOrEqual(trulyDuplicated(run));
      if (stats.duplicates! > 0) expect(jobs.valid).toBe(false);
      duplicates += stats.duplicates!;
    }
    expect(duplicates).toBeGreaterThan(0);
  });

  it.each(['fence-claim', 'version'] as const)('with %s every stale record is refused: no duplicate, the runs wasted instead', async (resource) => {
    let wasted = 0;
    for (const seed of SEEDS) {
      const { run, jobs, stats } = await jobsOf(resource, seed);
      expect(trulyDuplicated(run)).toBe(0);
      expect(stats).toMatchObject({ duplicates: 0, lost: 0 });
      expect(jobs.valid).toBe(true);
      wasted += stats.wasted!;
    }
    // The danger occurred: stale records came and were refused.
    expect(wasted).toBeGreaterThan(0);
  });

  it("a write-only fence is not enough: seed 3's stale record lands before the next holder's, and the job is done twice", async () => {
    const { run, stats } = await jobsOf('fence', 3);
    expect(stats.duplicates).toBe(1);
    expect(trulyDuplicated(run)).toBe(1);
  });
});
