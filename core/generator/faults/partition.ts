/**
 * partition: traffic dropped between hosts (nft, one table per grudging
 * host): one server off from the rest, random halves, a ring of
 * majorities, a client off from the lock servers or the resource, and the
 * scripted shapes of a replicated master.
 */
import { isolateOne, majoritiesRing, randomHalves } from '../grudge.js';
import type { Prng } from '../../random/prng.js';
import type { GrudgeKind, PartitionTarget, ServerVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';

export type PartitionWindow = Span & { fault: 'partition'; target: PartitionTarget };

export const partition: FaultKindSpec<PartitionWindow> = {
  kind: 'partition',
  what: 'the network cut between hosts',
  ops: { start: 'start-partition', stops: ['stop-partition'], shade: 'partition' },
  seededLength: 'duration',
  seededDrawsNode: false,
  seeded: (span, d) => ({ ...span, fault: 'partition', target: seededPartition(d.shapeRng.pick(d.shapes), d.nodes, () => d.serverVictim(), d.shapeRng) }),
  scripted: (w, span, f) => ({ ...span, fault: 'partition', target: f.partitionTarget(w['target']) }),
  // The holder cut off while it renews: its keep-alive lost, its lease runs out while it still holds.
  huntEvents: ['held', 'holder-read', 'acquire', 'renew', 'time'],
  hunted: (d) => ({ ...d.span(d.between(d.lease * 1.5, d.lease * 3)), fault: 'partition', target: d.partition() }),
};

/** A seeded shape's target: a server-only shape aimed at a named node is resolved to its grudge now. */
function seededPartition(kind: GrudgeKind, nodes: readonly string[], serverVictim: () => ServerVictim, rng: Prng): PartitionTarget {
  switch (kind) {
    case 'isolate-one': {
      const victim = serverVictim();
      return victim.kind === 'node'
        ? { kind: 'partition', grudgeKind: kind, victim, grudge: isolateOne(nodes, victim.node) }
        : { kind: 'partition', grudgeKind: kind, victim };
    }
    case 'halves':
      return { kind: 'partition', grudgeKind: kind, grudge: randomHalves(nodes, rng.asRng()) };
    case 'majorities-ring':
      return { kind: 'partition', grudgeKind: kind, grudge: majoritiesRing(nodes, rng.asRng()) };
    case 'client-from-servers':
    case 'client-from-resource':
      return { kind: 'partition', grudgeKind: kind, victim: { kind: 'holder' } };
    case 'master-from-replicas':
    case 'master-with-minority':
      return { kind: 'partition', grudgeKind: kind };
  }
}
