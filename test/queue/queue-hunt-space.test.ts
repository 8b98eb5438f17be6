/**
 * A queue hunt's tries (pure): the hunt's seed and a try's index give the same try again and another index
 * another; every choice stays in its range (a non-empty subset of the asked faults, windows from the lock to
 * three times it, workers from two to the shape's most, a seed), the target is kept, and a base's own windows
 * never leak into a try (its windows are drawn from its own choices).
 */
import { describe, expect, it } from 'vitest';
import { DURATION_TIMES_LOCK, INTERVAL_TIMES_LOCK, queueTry } from '../../core/queue/queue-hunt-space.js';
import type { QueueFault, QueueRunOptions } from '../../core/queue/queue-options.js';
import { validateQueueOptions } from '../../core/queue/queue-options.js';
import { MATRIX_SETTINGS } from '../../core/queue/queue-matrix.js';
import { testSeed } from '../support/seed.js';

const BASE: QueueRunOptions = {
  backend: 'postgres',
  client: 'pg-boss',
  resource: 'idempotent',
  nemesis: ['client-pause'],
  ...MATRIX_SETTINGS,
  workers: 4,
  lockMs: 1500,
  resultsDir: 'results',
  windows: [{ atMs: 1, durationMs: 1, fault: 'pause' }],
};
const FAULTS: QueueFault[] = ['client-pause', 'client-kill', 'server-kill'];

describe("a queue hunt's tries", () => {
  it("are the seed's and the index's, in range, and keep the target", () => {
    const seed = testSeed('queue hunt tries', 'test/queue/queue-hunt-space.test.ts');
    const seen = new Set<string>();
    for (let index = 0; index < 300; index++) {
      const { choices, options } = queueTry(BASE, FAULTS, seed, index, '/tmp/hunt');
      expect(queueTry(BASE, FAULTS, seed, index, '/tmp/hunt')).toEqual({ choices, options });
      seen.add(JSON.stringify(choices));
      expect(choices.faults.length).toBeGreaterThan(0);
      expect(choices.faults.every((f) => FAULTS.includes(f))).toBe(true);
      expect(DURATION_TIMES_LOCK.map((t) => Math.round(t * BASE.lockMs))).toContain(choices.durationMs);
      expect(INTERVAL_TIMES_LOCK.map((t) => Math.round(t * BASE.lockMs))).toContain(choices.intervalMs);
      expect(choices.workers).toBeGreaterThanOrEqual(2);
      expect(choices.workers).toBeLessThanOrEqual(BASE.workers);
      expect(options).toMatchObject({
        backend: 'postgres',
        client: 'pg-boss',
        resource: 'idempotent',
        lockMs: 1500,
        seed: choices.seed,
        nemesis: choices.faults,
      });
      expect(options.windows).toBeUndefined();
      expect(options.name).toBe(`try-${String(index + 1).padStart(3, '0')}`);
      expect(() => validateQueueOptions(options)).not.toThrow();
    }
    // A swarm: tries differ (not one plan 300 times), and each fault is left out of some.
    expect(seen.size).toBeGreaterThan(250);
    const tries = Array.from({ length: 300 }, (_, i) => queueTry(BASE, FAULTS, seed, i, '/tmp/hunt').choices);
    for (const f of FAULTS) expect(tries.some((t) => !t.faults.includes(f))).toBe(true);
  });

  it('another hunt seed gives other tries', () => {
    const a = Array.from({ length: 20 }, (_, i) => queueTry(BASE, FAULTS, 1, i, 'r').choices);
    const b = Array.from({ length: 20 }, (_, i) => queueTry(BASE, FAULTS, 2, i, 'r').choices);
    expect(a).not.toEqual(b);
  });
});
