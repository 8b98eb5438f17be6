/**
 * Integration (real Redis and PostgreSQL, root, Bull and BullMQ from clients/node): a stall shorter than the
 * lock is harmless at the take and harmful just before the lock's first renewal. The same four stalls of 0.85 of
 * the lock, each on a worker holding a job a lock long, in two runs of each library at once (slots 1-4): struck
 * at the take, the worker renews on waking, inside its lock (valid, no job handed out twice, no completion
 * refused); struck `afterTakeMs` after its take (the library's renewal share, queue-libraries.ts: Bull's
 * lockExtender at half the lock, BullMQ's first tick past a quarter), the lock runs out while the worker sleeps,
 * its completion is refused for the missing lock and the job runs again: unsafe, duplicated. Each cluster torn
 * down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { runQueueTest } from '../../src/run/run-queue-test.js';
import { queueLibrary, renewalDueAfterTakeMs } from '../../core/queue/queue-libraries.js';
import type { QueueRunOptions } from '../../core/queue/queue-options.js';
import type { QueueWindow } from '../../core/queue/queue-window.js';
import { SHARED_MACHINE } from './helpers.js';

const resultsDir = mkdtempSync(join(projectRoot(), 'results', 'test-queue-renewal-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

const LOCK_MS = 2000;
const STALL_MS = Math.round(0.85 * LOCK_MS);

/** Four stalls 3.7 s apart, each `afterTakeMs` after the take it waits for (absent: at the take). */
function stalls(afterTakeMs: number | undefined): QueueWindow[] {
  return [1500, 5200, 8900, 12600].map((atMs) => ({ atMs, durationMs: STALL_MS, fault: 'pause', ...(afterTakeMs !== undefined ? { afterTakeMs } : {}) }));
}

async function run(client: 'bull' | 'bullmq', afterTakeMs: number | undefined, slot: number) {
  const o: QueueRunOptions = {
    backend: 'redis',
    client,
    resource: 'none',
    nemesis: ['client-pause'],
    timeLimitS: 16,
    workers: 3,
    rate: 0.25,
    // Each job held past its first renewal (a lock long, then its effect).
    jobMs: 2 * LOCK_MS,
    lockMs: LOCK_MS,
    intervalMs: 5000,
    durationMs: STALL_MS,
    recoverMs: 5000,
    callTimeoutMs: 1000,
    seed: 1,
    resultsDir,
    windows: stalls(afterTakeMs),
  };
  const at = afterTakeMs === undefined ? 'at the take' : `${afterTakeMs} ms after the take`;
  const log = (l: string) => console.log(`  [slot ${slot} ${client} ${at}] ${l}`);
  const r = await runQueueTest(o, { log, busyTimeoutMs: SHARED_MACHINE.busyTimeoutMs, slot });
  const queue = r.results.checkers.find((c) => c.checker === 'total-queue')!;
  console.log(`${client} stall ${at}: ${queue.summary} (${r.runDir})`);
  const pauses = r.history.filter((op) => op.process === 'nemesis' && op.f === 'pause' && op.type === 'info' && op.error === undefined);
  return { results: r.results, stats: queue.stats ?? {}, pauses };
}

describe('a stall shorter than the lock, at the take and at the renewal (real Redis)', () => {
  it('Bull and BullMQ: harmless at the take, a job run twice when it opens just before the first renewal', async () => {
    const aims = (['bull', 'bullmq'] as const).map((client) => ({ client, afterTakeMs: renewalDueAfterTakeMs(queueLibrary(client), LOCK_MS)! }));
    // The aim lands the stall's end past the lock (Bull 900 + 1700, BullMQ 450 + 1700 ms > 2000).
    for (const { client, afterTakeMs } of aims) expect(afterTakeMs + STALL_MS, client).toBeGreaterThan(LOCK_MS + 100);
    const runs = await Promise.all(aims.flatMap(({ client, afterTakeMs }, i) => [run(client, undefined, 2 * i + 1), run(client, afterTakeMs, 2 * i + 2)]));
    for (const [i, { client, afterTakeMs }] of aims.entries()) {
      const [atTake, atRenewal] = [runs[2 * i]!, runs[2 * i + 1]!];
      // Every stall struck a worker holding a job, aimed as planned.
      expect(atTake.pauses.length, client).toBe(4);
      expect(atRenewal.pauses.length, client).toBe(4);
      expect(atTake.pauses.every((p) => p['afterTakeMs'] === undefined)).toBe(true);
      expect(atRenewal.pauses.every((p) => p['afterTakeMs'] === afterTakeMs)).toBe(true);
      expect(atTake.stats['redelivered'], `${client} at the take`).toBe(0);
      expect(atTake.stats['missingLock'], `${client} at the take`).toBe(0);
      expect(atTake.results.outcome, `${client} at the take`).toBe('untested');
      expect(atRenewal.stats['missingLock'], `${client} at the renewal`).toBeGreaterThan(0);
      expect(atRenewal.stats['duplicated'], `${client} at the renewal`).toBeGreaterThan(0);
      expect(atRenewal.results.outcome, `${client} at the renewal`).toBe('unsafe');
    }
  });
});
