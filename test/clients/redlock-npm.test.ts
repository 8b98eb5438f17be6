/**
 * The finding behind redlock-npm-client.ts, shown without servers: the npm
 * `redlock` library hands out a lock whose validity is already gone when the
 * quorum took longer than the TTL (a pause during acquisition), where the
 * documented algorithm (ours) refuses it. Fake timers: no real time passes.
 */
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as RedlockModule from '../../node_modules/redlock/dist/index.js';
import { redlockAcquire, type RedlockNode } from '../../runtime/clients/redlock-algorithm.js';

const { default: Redlock } = createRequire(import.meta.url)('redlock') as typeof RedlockModule;

/** A Redis master that grants every SET after `ms` (as if the client were stopped that long). */
function slowMaster(ms: number): { evalsha: () => Promise<number> } {
  return { evalsha: () => new Promise((resolve) => setTimeout(() => resolve(1), ms)) };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('npm redlock 5.0.0-beta.2 vs the documented algorithm, quorum reached after 300 ms, TTL 100 ms', () => {
  it('the library returns the lock anyway, its expiration already in the past', async () => {
    const clients = Array.from({ length: 5 }, () => slowMaster(300));
    const redlock = new Redlock(clients as never, { retryCount: 0 });
    const pending = redlock.acquire(['L'], 100);
    await vi.advanceTimersByTimeAsync(300);
    const lock = await pending;
    // expiration = start + ttl − drift (100 − 3): it was over 200 ms ago, and acquire() did not look.
    expect(lock.expiration - Date.now()).toBe(100 - 3 - 300);
  });

  it('our Redlock computes validity ≤ 0 and refuses it', async () => {
    let t = 0;
    const clock = { now: () => t, sleep: async (ms: number) => void (t += ms), random: () => 0.5 };
    const node: RedlockNode = {
      lock: async () => {
        t = 300;
        return 'locked';
      },
      unlock: async () => 'released',
    };
    const r = await redlockAcquire([node, node, node, node, node], 'L', 'v', 100, clock, 0);
    expect(r.acquired).toBe(false);
    expect(r.acquired === false && r.reason).toBe('validity-expired');
    expect(r.attempts[0]!.validityMs).toBe(100 - 300 - 3);
  });
});
