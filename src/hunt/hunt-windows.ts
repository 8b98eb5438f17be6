/**
 * One fault window for a hunt's arm (a fault kind and the lock event it
 * waits for), sized from the lock's lease (pure, seeded). Sizes are chosen
 * where the danger lives: a pause or partition longer than the lease (the
 * lock must pass on while the victim sleeps), a delay near the lease (an
 * answer that arrives when its validity is gone), a clock jump of a few
 * leases forward.
 */
import type { Prng } from '../../core/random/prng.js';
import { faultSpec, type FaultKind, type FaultWindow } from '../../core/generator/faults/registry.js';
import type { HuntDraws } from '../../core/generator/faults/fault-kind.js';
import type { ClientVictim, PartitionTarget, ServerVictim, Trigger, TriggerEvent } from '../../core/generator/fault-window.js';

export interface Arm {
  fault: FaultKind;
  on: TriggerEvent | 'time';
}

/**
 * How a partition cuts: the holder (or an acquirer) off from every lock
 * server, from some of them (it still sees the rest: with independent nodes
 * such as Redlock's, two clients then see different majorities), or from the
 * resource; one server off from the rest; and the shapes of a replicated
 * master (redis-sentinel: the master cut off from its replicas, or left with a
 * minority of the clients).
 */
export const PARTITION_SHAPES = [
  'client-from-servers',
  'client-from-some-servers',
  'client-from-resource',
  'isolate-one',
  'master-from-replicas',
  'master-with-minority',
] as const;
export type PartitionShape = (typeof PARTITION_SHAPES)[number];

export interface WindowScale {
  /** The try's main phase, ms. */
  timeLimitMs: number;
  /** The lock's lease, ms. */
  ttlMs: number;
  /** The lock service's servers by name: a server fault hits the leader (or first node) or one of them (default: the leader only). */
  nodes?: readonly string[];
  /** The partition shapes the target has (default: the holder from every server). */
  partitionShapes?: readonly PartitionShape[];
}

export function windowOf(arm: Arm, s: WindowScale, rng: Prng): FaultWindow {
  const lease = s.ttlMs;
  const between = (lo: number, hi: number): number => Math.round(lo + rng.float() * (hi - lo));
  // Start early enough that the event has time to come and the fault to matter.
  const at = between(300, Math.max(300, s.timeLimitMs * 0.6));
  const trigger: Trigger | undefined =
    arm.on === 'time'
      ? undefined
      : arm.on === 'lease-ending'
        ? { on: arm.on, withinMs: s.timeLimitMs, leadMs: between(lease * 0.05, lease * 0.3) }
        : { on: arm.on, withinMs: s.timeLimitMs };
  const span = (length: number) => ({ at, until: Math.min(s.timeLimitMs, at + length), ...(trigger ? { trigger } : {}) });
  const client = arm.on === 'acquire' ? ({ kind: 'acquirer' } as const) : ({ kind: 'holder' } as const);
  // Half the server faults hit the leader (or the first node), half a named node: without a leader (Redlock) every node is a victim.
  const server = (): ServerVictim => (s.nodes && s.nodes.length > 1 && rng.float() < 0.5 ? { kind: 'node', node: rng.pick(s.nodes) } : { kind: 'leader' });
  const draws: HuntDraws = {
    lease,
    between,
    span,
    client,
    server,
    nodes: s.nodes ?? [],
    partition: () => partitionOf(rng.pick(s.partitionShapes ?? ['client-from-servers']), client, server, s.nodes ?? [], rng),
    rng,
  };
  return faultSpec(arm.fault).hunted(draws);
}

/** A partition of one shape; `client-from-some-servers` cuts the client off from a minority of the servers, drawn here. */
function partitionOf(shape: PartitionShape, client: ClientVictim, server: () => ServerVictim, nodes: readonly string[], rng: Prng): PartitionTarget {
  switch (shape) {
    case 'client-from-servers':
    case 'client-from-resource':
      return { kind: 'partition', grudgeKind: shape, victim: client };
    case 'client-from-some-servers': {
      const shuffled = nodes
        .map((n) => [rng.float(), n] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, n]) => n);
      const count = rng.int(1, Math.max(1, Math.floor((nodes.length - 1) / 2)));
      return { kind: 'partition', grudgeKind: 'client-from-servers', victim: client, servers: shuffled.slice(0, count) };
    }
    case 'isolate-one':
      return { kind: 'partition', grudgeKind: 'isolate-one', victim: server() };
    case 'master-from-replicas':
    case 'master-with-minority':
      return { kind: 'partition', grudgeKind: shape };
  }
}
