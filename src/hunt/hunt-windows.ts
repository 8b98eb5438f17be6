/**
 * One fault window for a hunt's arm (a fault kind and the lock event it
 * waits for), sized from the lock's lease (pure, seeded). Sizes are chosen
 * where the danger lives: a pause or partition longer than the lease (the
 * lock must pass on while the victim sleeps), a delay near the lease (an
 * answer that arrives when its validity is gone), a clock jump of a few
 * leases forward.
 */
import type { Prng } from '../../core/random/prng.js';
import { EVICT_POLICIES } from '../../core/generator/eviction.js';
import type { FaultKind, FaultWindow, Trigger, TriggerEvent } from '../../core/generator/nemesis-schedule.js';

export interface Arm {
  fault: FaultKind;
  on: TriggerEvent | 'time';
}

export interface WindowScale {
  /** The try's main phase, ms. */
  timeLimitMs: number;
  /** The lock's lease, ms. */
  ttlMs: number;
}

export function windowOf(arm: Arm, s: WindowScale, rng: Prng): FaultWindow {
  const lease = s.ttlMs;
  const between = (lo: number, hi: number): number => Math.round(lo + rng.float() * (hi - lo));
  // Start early enough that the event has time to come and the fault to matter.
  const at = between(300, Math.max(300, s.timeLimitMs * 0.6));
  const trigger: Trigger | undefined =
    arm.on === 'time' ? undefined : arm.on === 'lease-ending' ? { on: arm.on, withinMs: s.timeLimitMs, leadMs: between(lease * 0.05, lease * 0.3) } : { on: arm.on, withinMs: s.timeLimitMs };
  const span = (length: number) => ({ at, until: Math.min(s.timeLimitMs, at + length), ...(trigger ? { trigger } : {}) });
  const client = arm.on === 'acquire' ? ({ kind: 'acquirer' } as const) : ({ kind: 'holder' } as const);
  switch (arm.fault) {
    case 'client-pause':
      return { ...span(between(lease * 1.5, lease * 3)), fault: 'client-pause', target: client };
    case 'delay': {
      const link = arm.on === 'acquire' || arm.on === 'grant' ? 'lock' : arm.on === 'time' ? rng.pick(['lock', 'resource'] as const) : 'resource';
      const delayMs = between(lease * 0.5, lease * 1.5);
      return { ...span(delayMs + lease), fault: 'delay', target: client, link, delayMs };
    }
    case 'server-pause':
      return { ...span(between(lease, lease * 3)), fault: 'server-pause', target: { kind: 'leader' } };
    case 'kill':
      return { ...span(between(1000, 4000)), fault: 'kill', target: { kind: 'leader' } };
    case 'clock':
      return { ...span(between(lease, lease * 3)), fault: 'clock', target: { kind: 'leader' }, offsetMs: between(lease * 1.5, lease * 3) };
    case 'partition':
      return { ...span(between(lease * 1.5, lease * 3)), fault: 'partition', target: { kind: 'partition', grudgeKind: 'client-from-servers', victim: client } };
    case 'loss':
      return { ...span(between(lease * 2, lease * 4)), fault: 'loss', target: { kind: 'leader' }, lossPercent: between(30, 70) };
    case 'evict':
      // Long enough for the filler to push the node past maxmemory and the lock key out.
      return { ...span(between(Math.max(3000, lease * 2), Math.max(6000, lease * 4))), fault: 'evict', target: { kind: 'leader' }, policy: rng.pick(EVICT_POLICIES) };
  }
}
