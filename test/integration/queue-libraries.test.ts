/**
 * Integration (real Redis and PostgreSQL, root, BullMQ and pg-boss from clients/node): the queue workload's libraries.
 * Five BullMQ workers take jobs; a worker holding one is stalled (SIGSTOP) past its lockDuration, so another
 * worker's stalled check moves the job back and runs it again while the first still holds it. Without a
 * remedy (`--resource none`) the job's effect lands twice (total-queue: duplicated, the run unsafe); with the
 * job's attempt number as a fence the stalled worker's late effect is refused (wasted) and its completion
 * refused by BullMQ, every job done once (safe, with the redeliveries as evidence). pg-boss on a PostgreSQL of
 * its own: a job active past expireInSeconds is failed by the maintenance and retried, so the same stall
 * duplicates its effect. Bull's attempt number (attemptsMade) does not count a stalled re-run, so the same fence
 * lets both effects land. Celery (acks_late off) and RQ never hand a stalled job out again within seconds:
 * untested, never safe. graphile-worker holds a job's lock for 4 hours, so the jobs of a worker killed
 * mid-job (client-kill) are not done by the end of the run: lost. Each run starts its own cluster in a slot of its own
 * (core/cluster/slots.ts) and tears it down; the runs go at once (they are mostly waiting on leases and
 * stalls), which also tests that concurrent slots keep their runs apart.
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

type Library = 'bullmq' | 'bull' | 'pg-boss' | 'graphile-worker' | 'celery' | 'rq';
const SERVER: Record<Library, QueueRunOptions['backend']> = {
  bullmq: 'redis',
  bull: 'redis',
  'pg-boss': 'postgres',
  'graphile-worker': 'postgres',
  celery: 'redis',
  rq: 'redis',
};

async function queueRun(client: Library, resource: QueueMode, slot: number, nemesis: QueueRunOptions['nemesis'] = ['client-pause']) {
  const o: QueueRunOptions = {
    backend: SERVER[client],
    client,
    resource,
    nemesis,
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
  const log = (l: string) => console.log(`  [slot ${slot} ${client}/${resource}] ${l}`);
  const r = await runQueueTest(o, { log, busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs, slot });
  const queue = r.results.checkers.find((c) => c.checker === 'total-queue')!;
  console.log(`${client}/${resource}: ${queue.summary} (${r.runDir})`);
  return { results: r.results, stats: queue.stats ?? {} };
}

// Each run its own slot (1..7), so the runs can go at once without sharing a cluster (five tests at most:
// vitest's maxConcurrency, so that all start together).
describe.concurrent('queue workers stalled past their lock, each library in a slot of its own', () => {
  it('BullMQ without a remedy: a stalled job is run again and its effect lands twice: unsafe', async () => {
    const { results, stats } = await queueRun('bullmq', 'none', 1);
    expect(results.evidence.faults.applied).toBeGreaterThan(0);
    expect(stats['redelivered']).toBeGreaterThan(0);
    expect(stats['duplicated']).toBeGreaterThan(0);
    expect(results.checkers[0]!.anomalies.some((a) => a.kind === 'duplicate-job')).toBe(true);
    expect(results.outcome).toBe('unsafe');
  });

  it('BullMQ with the attempt number as a fence: the late effect is refused, every job done once: safe, with the redeliveries as evidence', async () => {
    const { results, stats } = await queueRun('bullmq', 'attempt-fence', 2);
    expect(stats['redelivered']).toBeGreaterThan(0);
    expect(stats['duplicated']).toBe(0);
    expect(stats['lost']).toBe(0);
    expect(stats['wasted']).toBeGreaterThan(0);
    expect(stats['missingLock']).toBeGreaterThan(0);
    expect(results.outcome).toBe('safe');
  });

  it('pg-boss without a remedy: the maintenance fails the stalled job, another worker runs it again, both effects land and pg-boss refuses the late completion: unsafe', async () => {
    const { results, stats } = await queueRun('pg-boss', 'none', 3);
    expect(results.evidence.faults.applied).toBeGreaterThan(0);
    expect(stats['redelivered']).toBeGreaterThan(0);
    expect(stats['duplicated']).toBeGreaterThan(0);
    expect(stats['missingLock']).toBeGreaterThan(0);
    expect(results.outcome).toBe('unsafe');
  });

  it('Bull with its attempt number as a fence: attemptsMade does not count a stalled re-run, both runs carry one number and both effects land: unsafe', async () => {
    const { results, stats } = await queueRun('bull', 'attempt-fence', 4);
    expect(stats['redelivered']).toBeGreaterThan(0);
    expect(stats['duplicated']).toBeGreaterThan(0);
    expect(stats['wasted']).toBe(0);
    expect(results.outcome).toBe('unsafe');
  });

  it("Celery (acks_late off, its default) and RQ, the Python programs: every job done once, the stalls struck workers holding jobs, but neither hands a job out again within seconds: untested, not safe; graphile-worker's worker killed mid-job: its jobs stay locked to the dead worker (4 hours), lost by the final read: unsafe", async () => {
    const [celery, rq, killed] = await Promise.all([
      queueRun('celery', 'none', 6),
      queueRun('rq', 'none', 7),
      queueRun('graphile-worker', 'none', 5, ['client-kill']),
    ]);
    for (const { results, stats } of [celery!, rq!]) {
      expect(results.evidence.faults.applied).toBeGreaterThan(0);
      expect(stats['enqueued']).toBeGreaterThan(0);
      expect(stats['lost']).toBe(0);
      expect(stats['redelivered']).toBe(0);
      expect(stats['duplicated']).toBe(0);
      expect(results.outcome).toBe('untested');
    }
    expect(killed!.results.evidence.faults.applied).toBeGreaterThan(0);
    expect(killed!.stats['lost']).toBeGreaterThan(0);
    expect(killed!.results.checkers[0]!.anomalies.some((a) => a.kind === 'lost-job')).toBe(true);
    expect(killed!.results.outcome).toBe('unsafe');
  });
});
