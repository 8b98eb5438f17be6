/**
 * Random run options over every flag (backends, modes, workloads, faults,
 * scripted windows of every kind, some waiting for a lock event), for the
 * replay round trips of the run options and of the run plan. `limits` keeps
 * the plan's size down where a test plans every case.
 */
import fc from 'fast-check';
import { EVICT_POLICIES } from '../../core/generator/eviction.js';
import { REDIS_PERSISTENCE } from '../../core/plan/redis-persistence.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import { GRUDGE_KINDS, TRIGGER_EVENTS, type Trigger } from '../../core/generator/fault-window.js';
import { LOCK_BACKENDS, RESOURCE_MODES, SCHEDULED_FAULT_KINDS, WORKLOADS } from '../../core/vocabulary.js';

export interface RunOptionLimits {
  maxTimeLimitS: number;
  maxClients: number;
  maxRate: number;
}

const WIDE: RunOptionLimits = { maxTimeLimitS: 3600, maxClients: 50, maxRate: 100 };

/** Fault windows of every kind, some waiting for a lock event: what a hunt's tries and shrunk plans replay with. */
const trigger: fc.Arbitrary<Trigger> = fc
  .record({ on: fc.constantFrom(...TRIGGER_EVENTS), withinMs: fc.integer({ min: 0, max: 60_000 }), leadMs: fc.integer({ min: 0, max: 5000 }) })
  .map(({ on, withinMs, leadMs }): Trigger => (on === 'lease-ending' ? { on, withinMs, leadMs } : { on, withinMs }));
const clientTarget = fc.oneof(
  fc.constant({ kind: 'holder' as const }),
  fc.constant({ kind: 'acquirer' as const }),
  fc.nat(9).map((worker) => ({ kind: 'client' as const, worker })),
);
const serverTarget = fc.oneof(
  fc.constant({ kind: 'leader' as const }),
  fc.constantFrom('n1', 'n2', 'r1').map((node) => ({ kind: 'node' as const, node })),
);
export const faultWindow: fc.Arbitrary<FaultWindow> = fc
  .record({
    at: fc.nat(60_000),
    length: fc.nat(20_000),
    trigger: fc.option(trigger, { nil: undefined }),
    kind: fc.nat(6),
    client: clientTarget,
    server: serverTarget,
    grudgeKind: fc.constantFrom(...GRUDGE_KINDS),
    amount: fc.integer({ min: 1, max: 20_000 }),
    link: fc.constantFrom('resource' as const, 'lock' as const),
  })
  .map((r): FaultWindow => {
    const span = { at: r.at, until: r.at + r.length, ...(r.trigger ? { trigger: r.trigger } : {}) };
    const shapes: FaultWindow[] = [
      { ...span, fault: 'client-pause', target: r.client },
      { ...span, fault: 'delay', target: r.client, link: r.link, delayMs: r.amount },
      { ...span, fault: 'server-pause', target: r.server },
      { ...span, fault: 'kill', target: r.server },
      { ...span, fault: 'clock', target: r.server, offsetMs: -r.amount },
      { ...span, fault: 'loss', target: r.server, lossPercent: 1 + (r.amount % 100) },
      { ...span, fault: 'partition', target: { kind: 'partition', grudgeKind: r.grudgeKind, victim: r.client, grudge: { n1: ['n2', 'n3'] } } },
    ];
    return shapes[r.kind]!;
  });

/** A flag value with the characters a shell must quote. */
const word = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_ '"$.\/-]{0,12}$/);

export function runOptionsArbitrary(limits: RunOptionLimits = WIDE): fc.Arbitrary<RunOptions> {
  return fc
    .record({
      backend: fc.constantFrom(...LOCK_BACKENDS),
      resource: fc.constantFrom(...RESOURCE_MODES),
      workload: fc.constantFrom(...WORKLOADS),
      // The delay is driven by the scenarios only (run --nemesis refuses it).
      nemesis: fc.subarray([...SCHEDULED_FAULT_KINDS]),
      timeLimitS: fc.integer({ min: 1, max: limits.maxTimeLimitS }),
      clients: fc.integer({ min: 1, max: limits.maxClients }),
      ttlMs: fc.integer({ min: 1, max: 100_000 }),
      seed: fc.integer({ min: 0, max: 2 ** 31 }),
      holdMs: fc.integer({ min: 0, max: 10_000 }),
      rate: fc.double({ min: 0.001, max: limits.maxRate, noNaN: true }),
      intervalMs: fc.integer({ min: 0, max: 60_000 }),
      durationMs: fc.integer({ min: 1, max: 60_000 }),
      recoverMs: fc.integer({ min: 0, max: 60_000 }),
      callTimeoutMs: fc.integer({ min: 1, max: 60_000 }),
      nemesisTarget: word,
      redisPersistence: fc.constantFrom(...REDIS_PERSISTENCE),
      resultsDir: word,
      checkHold: fc.boolean(),
      idleTxTimeoutMs: fc.integer({ min: 0, max: 60_000 }),
      // A foreign client's command line (quotes are checked when parsed, so none here).
      client: fc.option(fc.stringMatching(/^[A-Za-z0-9_.\/][A-Za-z0-9_ .\/-]{0,20}$/), { nil: undefined }),
      // namespaces is the default and is left out of a replay (replays from before providers read the same).
      provider: fc.option(fc.constant('containers' as const), { nil: undefined }),
      script: fc.option(fc.array(faultWindow, { maxLength: 4 }), { nil: undefined }),
      proxies: fc.option(fc.constantFrom('resource' as const, 'lock' as const, 'both' as const), { nil: undefined }),
      // The evict fault's policy: a run with evict replays it (default included), others never name it.
      evictPolicy: fc.constantFrom(...EVICT_POLICIES),
    })
    .map((o) => (o.nemesis.includes('evict') ? o : { ...o, evictPolicy: undefined }));
}
