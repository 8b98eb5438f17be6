/**
 * Integration (real Redis and PostgreSQL, root, BullMQ and pg-boss from clients/node): the queue workload's libraries.
 * Five BullMQ workers take jobs; a worker holding one is stalled (SIGSTOP) past its lockDuration, so another
 * worker's stalled check moves the job back and runs it again while the first still holds it. Without a
 * remedy (`--resource none`) the job's effect lands twice (total-queue: duplicated, the run unsafe); with the
 * job's attempt number as a fence the stalled worker's late effect is refused (wasted) and its completion
 * refused by BullMQ, every job done once (safe, with the redeliveries as evidence). pg-boss on a PostgreSQL of
 * its own: a job active past expireInSeconds is failed by the maintenance and retried, so the same stall
 * duplicates its effect. Each run starts its own cluster and tears it down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { runQueueTest } from '../../src/run/run-queue-test.js';
import type { QueueRunOptions } from '../../core/queue/queue-options.js';
import type { QueueMode } from '../../core/queue/queue-libraries.js';
import { SHARED_MACHINE } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-queue-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

async function queueRun(client: 'bullmq' | 'pg-boss', resource: QueueMode) {
  const o: QueueRunOptions = {
    backend: client === 'bullmq' ? 'redis' : 'postgres',
    client,
    resource,
    nemesis: ['client-pause'],
    timeLimitS: 12,
    workers: 3,
    rate: 3,
    jobMs: 200,
    lockMs: 1500,
    intervalMs: 2000,
    durationMs: 4000,
    recoverMs: 3000,
    callTimeoutMs: 1000,
    seed: 1,
    resultsDir,
  };
  const r = await runQueueTest(o, { log: (l) => console.log(`  ${l}`), busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs });
  const queue = r.results.checkers.find((c) => c.checker === 'total-queue')!;
  console.log(`${client}/${resource}: ${queue.summary} (${r.runDir})`);
  return { results: r.results, stats: queue.stats ?? {} };
}

describe('BullMQ workers stalled past their lock', () => {
  it('without a remedy a stalled job is run again and its effect lands twice: unsafe', async () => {
    const { results, stats } = await queueRun('bullmq', 'none');
    expect(results.evidence.faults.applied).toBeGreaterThan(0);
    expect(stats['redelivered']).toBeGreaterThan(0);
    expect(stats['duplicated']).toBeGreaterThan(0);
    expect(results.checkers[0]!.anomalies.some((a) => a.kind === 'duplicate-job')).toBe(true);
    expect(results.outcome).toBe('unsafe');
  });

  it('with the attempt number as a fence the late effect is refused, every job done once: safe, with the redeliveries as evidence', async () => {
    const { results, stats } = await queueRun('bullmq', 'attempt-fence');
    expect(stats['redelivered']).toBeGreaterThan(0);
    expect(stats['duplicated']).toBe(0);
    expect(stats['lost']).toBe(0);
    expect(stats['wasted']).toBeGreaterThan(0);
    expect(stats['missingLock']).toBeGreaterThan(0);
    expect(results.outcome).toBe('safe');
  });
});

describe('pg-boss workers stalled past their expireInSeconds', () => {
  it('without a remedy the maintenance fails the stalled job, another worker runs it again, both effects land and pg-boss refuses the late completion: unsafe', async () => {
    const { results, stats } = await queueRun('pg-boss', 'none');
    expect(results.evidence.faults.applied).toBeGreaterThan(0);
    expect(stats['redelivered']).toBeGreaterThan(0);
    expect(stats['duplicated']).toBeGreaterThan(0);
    expect(stats['missingLock']).toBeGreaterThan(0);
    expect(results.outcome).toBe('unsafe');
  });
});
