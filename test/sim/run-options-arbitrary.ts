/**
 * Random run options for the simulation suite: every simulated backend
 * (redis, redlock, etcd, zookeeper, and none: no lock at all), every workload and resource mode the
 * backend allows, every fault kind the product has (seeded schedules of
 * client-pause, server-pause, partition, kill, clock, loss and evict, or
 * scripted windows of client pauses and delays aimed at the holder, an
 * acquirer or one worker, some at lock events), short runs with leases,
 * holds, rates and timeouts drawn wide enough to make every race of the lock
 * protocols happen somewhere. A combination the product refuses (a clock
 * fault on etcd, evict without Redis, a fence on Redlock) is not drawn:
 * validateRunOptions, the product's own rule, filters it out.
 */
import fc from 'fast-check';
import { WORKLOADS } from '../../core/workloads/registry.js';
import type { FaultKind, FaultWindow } from '../../core/generator/faults/registry.js';
import { TRIGGER_EVENTS, type ClientVictim, type Trigger } from '../../core/generator/fault-window.js';
import { validateRunOptions, type RunOptions } from '../../core/plan/run-options.js';
import { notApplicable, SCHEDULED_FAULT_KINDS, type ResourceMode } from '../../core/vocabulary.js';
import { SIMULATED_BACKENDS } from './sim-lock-service.js';

const MODES: ResourceMode[] = ['none', 'fence', 'fence-claim', 'cas-unique', 'cas-unique-nonatomic', 'version', 'for-update'];
/**
 * The faults a seeded schedule draws: every kind a seeded run drives (delay is scripted only, below) that some
 * simulated backend takes (not session-end: no simulated backend holds a lock in a server session). Derived from
 * the specs, so a new kind is drawn here without a line of its own (the throwaway kind of issue 34 was not: this
 * list was written out).
 */
export const SEEDED_FAULTS: readonly FaultKind[] = SCHEDULED_FAULT_KINDS.filter((k) =>
  SIMULATED_BACKENDS.some((b) => notApplicable(b, 'none', [k], true) === undefined),
);

const victim: fc.Arbitrary<ClientVictim> = fc.oneof(
  fc.constant<ClientVictim>({ kind: 'holder' }),
  fc.constant<ClientVictim>({ kind: 'acquirer' }),
  fc.integer({ min: 0, max: 1 }).map((worker): ClientVictim => ({ kind: 'client', worker })),
);

/** A lock event to wait for (faults aimed at lock events), or none. */
const trigger: fc.Arbitrary<Trigger | undefined> = fc.option(
  fc
    .record({ on: fc.constantFrom(...TRIGGER_EVENTS), withinMs: fc.integer({ min: 0, max: 3000 }), leadMs: fc.integer({ min: 1, max: 500 }) })
    .map(({ on, withinMs, leadMs }): Trigger => (on === 'lease-ending' ? { on, withinMs, leadMs } : { on, withinMs })),
  { nil: undefined },
);

/** Scripted client pauses and link delays, possibly overlapping, within the main phase, some aimed at lock events. */
function scriptOf(timeLimitMs: number): fc.Arbitrary<FaultWindow[]> {
  const window = fc.record({
    at: fc.integer({ min: 0, max: timeLimitMs - 1 }),
    length: fc.integer({ min: 50, max: 4000 }),
    target: victim,
    trigger,
    delay: fc.option(fc.record({ link: fc.constantFrom('resource' as const, 'lock' as const), delayMs: fc.integer({ min: 10, max: 1500 }) }), {
      nil: undefined,
    }),
  });
  return fc.array(
    window.map(({ at, length, target, trigger: t, delay }): FaultWindow => {
      const span = { at, until: Math.min(timeLimitMs, at + length), ...(t ? { trigger: t } : {}) };
      return delay ? { ...span, fault: 'delay', target, link: delay.link, delayMs: delay.delayMs } : { ...span, fault: 'client-pause', target };
    }),
    { minLength: 1, maxLength: 4 },
  );
}

/** Options the product accepts, or undefined (filtered out). */
function accepted(o: RunOptions): RunOptions | undefined {
  try {
    return validateRunOptions(o);
  } catch {
    return undefined;
  }
}

export const runOptionsArbitrary: fc.Arbitrary<RunOptions> = fc
  .record({
    backend: fc.constantFrom(...SIMULATED_BACKENDS),
    workload: fc.constantFrom(...WORKLOADS),
    mode: fc.constantFrom(...MODES),
    timeLimitS: fc.integer({ min: 2, max: 5 }),
    clients: fc.integer({ min: 2, max: 4 }),
    ttlMs: fc.integer({ min: 200, max: 2000 }),
    holdMs: fc.integer({ min: 0, max: 300 }),
    rate: fc.integer({ min: 1, max: 8 }),
    intervalMs: fc.integer({ min: 200, max: 2000 }),
    durationMs: fc.integer({ min: 200, max: 3000 }),
    recoverMs: fc.integer({ min: 100, max: 2000 }),
    callTimeoutMs: fc.integer({ min: 50, max: 800 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    faults: fc.subarray([...SEEDED_FAULTS], { minLength: 0, maxLength: 3 }),
    scripted: fc.boolean(),
    checkHold: fc.boolean(),
    // for-update: PostgreSQL ends a session idle in its transaction after this long (0: never).
    idleTxTimeoutMs: fc.oneof(fc.constant(0), fc.integer({ min: 100, max: 2000 })),
  })
  .chain((r) => {
    const base: RunOptions = {
      backend: r.backend,
      resource: r.mode,
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
      checkHold: r.checkHold,
      ...(r.mode === 'for-update' ? { idleTxTimeoutMs: r.idleTxTimeoutMs } : {}),
    };
    if (!r.scripted) return fc.constant(base);
    return scriptOf(r.timeLimitS * 1000).map((script): RunOptions => ({
      ...base,
      nemesis: [...new Set(script.map((w) => w.fault))],
      script,
      ...(script.some((w) => w.fault === 'delay') ? { proxies: 'both' as const } : {}),
    }));
  })
  .map(accepted)
  .filter((o): o is RunOptions => o !== undefined);
