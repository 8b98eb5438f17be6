/**
 * A queue hunt's and a queue shrink's I/O on real clusters: each try a queue
 * run (runQueueTest) in the lowest free slot, so the hunt's lanes run side by
 * side, each on a cluster of its own. A queue run starts its cluster fresh
 * (no warm pool yet: its servers are one Redis or PostgreSQL and the
 * resource's, a few seconds). Loaded only when a queue hunt runs.
 */
import { runQueueTest } from '../run/run-queue-test.js';
import { runInFreeSlot } from '../run/run-in-free-slot.js';
import type { QueueHuntDeps } from './run-queue-hunt.js';

/** How long a lane waits for a free slot before its try counts as failed to run. */
const SLOT_WAIT_MS = 60_000;

export function realQueueHuntDeps(log: (line: string) => void, stopped: () => boolean, lanes = 1): QueueHuntDeps {
  return {
    lanes,
    runTry: async (options, lane) => {
      const tag = lanes > 1 ? `[lane ${lane + 1}] ` : '';
      const r = await runInFreeSlot(
        (slot) => runQueueTest(options, { log: (l) => log(`  ${tag}${l}`), busyTimeoutMs: 0, slot }),
        SLOT_WAIT_MS,
        (l) => log(`  ${tag}${l}`),
      );
      return { runDir: r.runDir, replay: r.replay, results: r.results };
    },
    now: () => Date.now(),
    log,
    stopped,
  };
}
