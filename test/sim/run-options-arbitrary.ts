/**
 * Random run options for the simulation suite: every workload and resource
 * mode a backend allows, the faults the simulation models (seeded schedules
 * and scripted windows aimed at the holder, an acquirer or one worker),
 * short runs with leases, holds, rates and timeouts drawn wide enough to
 * make every race of the lock protocol happen somewhere.
 */
import fc from 'fast-check';
import type { LockWorkload } from '../../core/checkers/lock/verdict.js';
import { TRIGGER_EVENTS, type ClientVictim, type FaultWindow, type Trigger } from '../../core/generator/nemesis-schedule.js';
import type { RunOptions } from '../../core/plan/run-options.js';

const WORKLOADS: LockWorkload[] = ['lock-counter', 'fenced-write', 'mutex'];

const victim: fc.Arbitrary<ClientVictim> = fc.oneof(
  fc.constant<ClientVictim>({ kind: 'holder' }),
  fc.constant<ClientVictim>({ kind: 'acquirer' }),
  fc.integer({ min: 0, max: 1 }).map((worker): ClientVictim => ({ kind: 'client', worker })),
);

/** A lock event to wait for (faults aimed at lock events), or none. */
const trigger: fc.Arbitrary<Trigger | undefined> = fc.option(
  fc.record({ on: fc.constantFrom(...TRIGGER_EVENTS), withinMs: fc.integer({ min: 0, max: 3000 }), leadMs: fc.integer({ min: 1, max: 500 }) }).map(({ on, withinMs, leadMs }): Trigger => (on === 'lease-ending' ? { on, withinMs, leadMs } : { on, withinMs })),
  { nil: undefined },
);

/** Scripted client pauses, possibly overlapping, within the main phase, some aimed at lock events. */
function scriptOf(timeLimitMs: number): fc.Arbitrary<FaultWindow[]> {
  return fc.array(
    fc.record({ at: fc.integer({ min: 0, max: timeLimitMs - 1 }), length: fc.integer({ min: 50, max: 4000 }), target: victim, trigger }).map(
      ({ at, length, target, trigger: t }): FaultWindow => ({ at, until: Math.min(timeLimitMs, at + length), fault: 'client-pause', target, ...(t ? { trigger: t } : {}) }),
    ),
    { minLength: 1, maxLength: 4 },
  );
}

export const runOptionsArbitrary: fc.Arbitrary<RunOptions> = fc
  .record({
    unique: fc.boolean(),
    workload: fc.constantFrom(...WORKLOADS),
    mode: fc.integer({ min: 0, max: 4 }),
    timeLimitS: fc.integer({ min: 2, max: 8 }),
    clients: fc.integer({ min: 2, max: 5 }),
    ttlMs: fc.integer({ min: 200, max: 2000 }),
    holdMs: fc.integer({ min: 0, max: 300 }),
    rate: fc.integer({ min: 1, max: 8 }),
    intervalMs: fc.integer({ min: 200, max: 2000 }),
    durationMs: fc.integer({ min: 200, max: 3000 }),
    recoverMs: fc.integer({ min: 100, max: 2000 }),
    callTimeoutMs: fc.integer({ min: 50, max: 800 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    faults: fc.subarray(['client-pause', 'server-pause', 'partition'] as const, { minLength: 0 }),
    scripted: fc.boolean(),
  })
  .chain((r) => {
    const modes = r.unique ? (['none', 'cas-unique', 'cas-unique-nonatomic'] as const) : (['none', 'fence', 'fence-claim', 'cas-unique', 'cas-unique-nonatomic'] as const);
    const base: RunOptions = {
      backend: r.unique ? 'redlock' : 'redis',
      resource: modes[r.mode % modes.length]!,
      workload: r.workload,
      nemesis: [...r.faults],
      timeLimitS: r.timeLimitS,
      clients: r.clients,
      ttlMs: r.ttlMs,
      seed: r.seed,
      holdMs: r.holdMs,
      rate: r.rate,
      intervalMs: r.intervalMs,
      durationMs: r.durationMs,
      recoverMs: r.recoverMs,
      callTimeoutMs: r.callTimeoutMs,
      nemesisTarget: 'random',
      redisPersistence: 'none',
      resultsDir: 'unused',
      checkHold: false,
    };
    return r.scripted ? scriptOf(r.timeLimitS * 1000).map((script): RunOptions => ({ ...base, nemesis: ['client-pause'], script })) : fc.constant(base);
  });
