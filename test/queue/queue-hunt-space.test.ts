/**
 * A queue hunt's tries (pure): the hunt's seed and a try's index give the same try again and another index
 * another; every choice stays in its range (a non-empty subset of the asked faults, windows from the lock to
 * three times it, workers from two to the shape's most, a seed), the target is kept, and a base's own windows
 * never leak into a try (its windows are drawn from its own choices). A library that renews its locks has about
 * half its tries with a taker's fault aimed just before the first renewal: the same windows the seed draws, each
 * taker's window given the library's afterTakeMs, jobs a lock long (held past the renewal), a stall from under
 * the lock to past it; a library that does not renew, or a swarm of no taker's fault, is never aimed.
 */
import { describe, expect, it } from 'vitest';
import { DURATION_TIMES_LOCK, INTERVAL_TIMES_LOCK, RENEWAL_DURATION_TIMES_LOCK, describeQueueTry, queueTry } from '../../core/queue/queue-hunt-space.js';
import type { QueueFault, QueueRunOptions } from '../../core/queue/queue-options.js';
import { queueReplayCommand, validateQueueOptions } from '../../core/queue/queue-options.js';
import { queueLibrary, renewalDueAfterTakeMs } from '../../core/queue/queue-libraries.js';
import { planQueueRun } from '../../core/queue/queue-plan.js';
import { TAKER_FAULTS } from '../../core/queue/queue-window.js';
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

  it("aim about half of a renewing library's tries with a taker's fault at its first renewal, the windows the seed draws", () => {
    const seed = testSeed('queue hunt renewal tries', 'test/queue/queue-hunt-space.test.ts');
    for (const [client, backend] of [
      ['bullmq', 'redis'],
      ['bull', 'redis'],
      ['bee-queue', 'redis'],
    ] as const) {
      const base: QueueRunOptions = { ...BASE, client, backend, resource: 'none', windows: undefined };
      const afterTakeMs = renewalDueAfterTakeMs(queueLibrary(client), base.lockMs)!;
      expect(afterTakeMs, client).toBeLessThan(base.lockMs / 2);
      let aimed = 0;
      let eligible = 0;
      for (let index = 0; index < 200; index++) {
        const { choices, options } = queueTry(base, FAULTS, seed, index, '/tmp/hunt');
        const taker = choices.faults.some((f) => ['client-pause', 'client-partition', 'client-delay'].includes(f));
        if (taker) eligible++;
        if (choices.renewal === undefined) {
          expect(options.windows).toBeUndefined();
          continue;
        }
        aimed++;
        expect(taker, `try ${index}`).toBe(true);
        expect(choices.renewal).toEqual({ afterTakeMs, jobMs: base.lockMs, rate: Math.min(base.rate, 500 / base.lockMs) });
        expect(RENEWAL_DURATION_TIMES_LOCK.map((t) => Math.round(t * base.lockMs))).toContain(choices.durationMs);
        expect(options).toMatchObject({ jobMs: base.lockMs, durationMs: choices.durationMs, nemesis: choices.faults });
        const drawn = planQueueRun({ ...options, windows: undefined }).stalls;
        expect(options.windows!.map(({ afterTakeMs: _a, ...w }) => w)).toEqual(drawn);
        for (const w of options.windows!) expect(w.afterTakeMs).toBe(TAKER_FAULTS.includes(w.fault) ? afterTakeMs : undefined);
        expect(() => validateQueueOptions(options)).not.toThrow();
        expect(queueReplayCommand(options)).toContain('"afterTakeMs":');
        expect(describeQueueTry(choices)).toContain(`${afterTakeMs} ms after a take`);
      }
      // Even odds among the tries that can be aimed (200 tries: well inside 30-70 %).
      expect(aimed / eligible, client).toBeGreaterThan(0.3);
      expect(aimed / eligible, client).toBeLessThan(0.7);
    }
    const pgBoss = Array.from({ length: 100 }, (_, i) => queueTry({ ...BASE, windows: undefined }, FAULTS, seed, i, 'r').choices);
    expect(pgBoss.every((c) => c.renewal === undefined)).toBe(true);
    const killsOnly = Array.from({ length: 100 }, (_, i) =>
      queueTry({ ...BASE, client: 'bullmq', backend: 'redis' }, ['client-kill', 'server-kill'], seed, i, 'r'),
    );
    expect(killsOnly.every((t) => t.choices.renewal === undefined)).toBe(true);
  });
});
