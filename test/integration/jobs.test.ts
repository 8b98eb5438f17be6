/**
 * Integration (real servers, root): the jobs workload ("a single Redis lock is fine when a rare double run
 * only wastes work") on single Redis, the holder paused past its lease while it does its job (aimed at the
 * moment after its read, as `npm run compare` aims it). Without a fence the job is done twice (the jobs
 * checker counts the duplicate and decides the run); with fence-claim the second record is refused, every
 * job done once, the refused record counted as a wasted run. The rates the debate's S12 row reports come
 * from the same checker. Each run starts its own cluster and tears it down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { runLockTest } from '../../src/run/run-lock-test.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { aimedScript } from '../../core/plan/run-plan.js';
import { readResultsJson } from '../../runtime/store/read-run-files.js';
import type { ResourceMode } from '../../core/vocabulary.js';
import { SHARED_MACHINE } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-jobs-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

async function jobsRun(resource: ResourceMode) {
  const o: RunOptions = {
    ...DEFAULTS,
    backend: 'redis',
    resource,
    workload: 'jobs',
    nemesis: ['client-pause'],
    timeLimitS: 5,
    clients: 3,
    ttlMs: 1000,
    holdMs: 200,
    rate: 4,
    intervalMs: 200,
    durationMs: 4000,
    recoverMs: 500,
    seed: 2,
    resultsDir,
  };
  const r = await runLockTest({ ...o, script: aimedScript(o, { 'client-pause': 'holder-read' }) }, { log: (l) => console.log(`  ${l}`), ...SHARED_MACHINE });
  const results = readResultsJson(r.runDir)!;
  const jobs = results.checkers.find((c) => c.checker === 'jobs')!;
  console.log(`redis/${resource} jobs: ${jobs.summary} (${r.runDir})`);
  return { results, jobs };
}

describe('the jobs workload on single Redis under a holder paused past its lease', () => {
  it('without a fence a job is done twice: the jobs checker counts it and decides the run', async () => {
    const { results, jobs } = await jobsRun('none');
    expect(jobs.valid).toBe(false);
    expect(jobs.stats?.['duplicates']).toBeGreaterThan(0);
    expect(results.deciding).toContain('jobs');
    expect(results.outcome).toBe('unsafe');
  });

  it('with fence-claim every job is done once: the late record refused, a wasted run', async () => {
    const { results, jobs } = await jobsRun('fence-claim');
    expect(jobs.valid).toBe(true);
    expect(jobs.stats?.['duplicates']).toBe(0);
    expect(jobs.stats?.['wasted']).toBeGreaterThan(0);
    expect(results.outcome).toBe('safe');
  });
});
