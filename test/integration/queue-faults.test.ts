/**
 * Integration (real Redis and PostgreSQL, root, BullMQ from clients/node): the queue faults beyond a stall, each
 * on a cluster of its own (slots 1-3, at once). A worker killed after its job's effect landed and before its
 * completion (effect-kill) has the job handed out again and its effect land twice: unsafe, with the kill's
 * trigger in the history; the same with the job's id as an idempotency key holds (safe, the second effect
 * refused as wasted). A worker cut off from the queue's server (client-partition: nftables both ways) cannot
 * renew its lock: the job is run again and its late completion refused (missing lock). A worker whose link to the
 * queue's server is delayed by the lock each way (client-delay, through its delay proxy) likewise. Behind Sentinels
 * (slot 4), a kill of the master: the workers follow the failover. graphile-worker's PostgreSQL killed (slot 6): its
 * workers, which end on their own when it dies, are started again as a supervisor would. Every window struck (the evidence counts it) and
 * each cluster is torn down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { runQueueTest } from '../../src/run/run-queue-test.js';
import type { QueueFault, QueueRunOptions } from '../../core/queue/queue-options.js';
import type { QueueMode } from '../../core/queue/queue-libraries.js';
import { SHARED_MACHINE } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-queue-faults-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

/** A BullMQ run (another library with `over.client`) under `fault` in `slot`. */
async function bullmqRun(fault: QueueFault, resource: QueueMode, slot: number, over: Partial<QueueRunOptions> = {}) {
  const o: QueueRunOptions = {
    backend: 'redis',
    client: 'bullmq',
    resource,
    nemesis: [fault],
    timeLimitS: 12,
    workers: 3,
    rate: 2,
    jobMs: 200,
    lockMs: 1500,
    intervalMs: 2500,
    durationMs: 4000,
    recoverMs: 3000,
    callTimeoutMs: 1000,
    seed: 1,
    resultsDir,
    ...over,
  };
  const log = (l: string) => console.log(`  [slot ${slot} ${o.client} ${fault}/${resource}] ${l}`);
  const r = await runQueueTest(o, { log, busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs, slot });
  const queue = r.results.checkers.find((c) => c.checker === 'total-queue')!;
  console.log(`${o.client} ${fault}/${resource}: ${queue.summary} (${r.runDir})`);
  return { results: r.results, stats: queue.stats ?? {}, history: r.history };
}

describe.concurrent('queue faults beyond a stall (BullMQ, real Redis)', () => {
  it('effect-kill: the effect done, the acknowledgement lost, the job run again; an idempotency key holds', async () => {
    const [none, keyed] = await Promise.all([bullmqRun('effect-kill', 'none', 1), bullmqRun('effect-kill', 'idempotent', 2)]);
    expect(none.results.evidence.faults.applied).toBeGreaterThan(0);
    expect(none.history.some((op) => op.process === 'nemesis' && op.f === 'kill' && op.type === 'info' && op.trigger === 'effect-landed')).toBe(true);
    expect(none.results.outcome).toBe('unsafe');
    expect(none.stats['duplicated']).toBeGreaterThan(0);
    expect(keyed.results.outcome).toBe('safe');
    expect(keyed.stats['redelivered']).toBeGreaterThan(0);
    expect(keyed.stats['wasted']).toBeGreaterThan(0);
  });

  // Until 2026-12-06 the programs were never given the Sentinels: they connected to the first master, and after a
  // failover tried it again and again (once it was back as a replica: READONLY), taking no job again (39 of 46 lost).
  // RQ (Python, redis-py's Sentinel) beside it: its worker quits when Redis fails it mid-job, and its program starts it
  // again as the supervisor RQ's docs ask for; a worker that ended unasked would make the run unknown.
  it('behind Sentinels, server-kill: BullMQ and RQ workers follow the failover to the promoted replica and take jobs after it', async () => {
    const sentinel = { backend: 'redis-sentinel', timeLimitS: 14, durationMs: 8000, intervalMs: 3000 } as const;
    const runs = await Promise.all([bullmqRun('server-kill', 'none', 4, sentinel), bullmqRun('server-kill', 'none', 5, { ...sentinel, client: 'rq' })]);
    for (const [r, lib] of [
      [runs[0], 'bullmq'],
      [runs[1], 'rq'],
    ] as const) {
      const kill = r.history.find((op) => op.process === 'nemesis' && op.f === 'kill' && op.type === 'info' && op.error === undefined);
      expect(kill, `${lib}: the master was killed`).toBeDefined();
      // Jobs taken well after the failover (the Sentinels promote a replica within about 3 s) while the old master is still down.
      const takenAfter = r.history.filter((op) => op.f === 'take' && op.type === 'ok' && op.time > kill!.time + 4e9 && op.time < kill!.time + 8e9);
      expect(takenAfter.length, `${lib}: jobs taken 4-8 s after the kill`).toBeGreaterThan(0);
      const enqueued = r.stats['enqueued'] ?? 0;
      expect(enqueued, lib).toBeGreaterThan(0);
      expect(r.stats['lost'] ?? 0, `${lib}: lost of ${enqueued}`).toBeLessThan(enqueued / 10);
      expect(r.results.outcome, lib).not.toBe('unknown');
    }
  });

  // Until 2026-12-06 a worker whose program ended on its own stayed down: graphile-worker's workers crash when their
  // PostgreSQL dies (an unhandled ECONNREFUSED in its completion batcher), and the run counted 108 of 149 jobs lost
  // (no worker left to take them) and was unknown. The runner now starts such a worker again, as a supervisor would.
  it("server-kill of graphile-worker's PostgreSQL: the workers that end on their own are started again and take jobs after it", async () => {
    const r = await bullmqRun('server-kill', 'none', 6, { backend: 'postgres', client: 'graphile-worker', timeLimitS: 20, jobMs: 600 });
    const kill = r.history.find((op) => op.process === 'nemesis' && op.f === 'kill' && op.type === 'info' && op.error === undefined);
    expect(kill, 'the server was killed').toBeDefined();
    const restarts = r.history.filter((op) => op.process === 'nemesis' && op.f === 'start' && op.type === 'info' && typeof op['ended'] === 'string');
    expect(restarts.length, 'workers started again after they ended on their own').toBeGreaterThan(0);
    const restarted = restarts.find((op) => op.error === undefined);
    expect(restarted, 'a restart that became ready').toBeDefined();
    const takenAfter = r.history.filter((op) => op.f === 'take' && op.type === 'ok' && op.time > restarted!.time);
    expect(takenAfter.length, 'jobs taken by the restarted workers').toBeGreaterThan(0);
    // A worker that ended on its own no longer makes the run unknown: the verdict is the data's.
    expect(r.results.checkers.map((c) => c.checker)).toEqual(['total-queue']);
    expect(r.results.outcome).not.toBe('unknown');
    const enqueued = r.stats['enqueued'] ?? 0;
    expect(enqueued).toBeGreaterThan(0);
    expect(r.stats['lost'] ?? 0, `lost of ${enqueued}`).toBeLessThan(enqueued / 10);
  });

  it('client-partition and client-delay: the lock not renewed, the job run again, the late completion refused', async () => {
    for (const [fault, slot] of [
      ['client-partition', 3],
      ['client-delay', 3],
    ] as const) {
      const r = await bullmqRun(fault, 'none', slot);
      expect(r.results.evidence.faults.applied, fault).toBeGreaterThan(0);
      expect(r.stats['redelivered'], fault).toBeGreaterThan(0);
      expect(r.results.outcome, fault).toBe('unsafe');
      expect(r.stats['missingLock'], fault).toBeGreaterThan(0);
    }
  });
});
