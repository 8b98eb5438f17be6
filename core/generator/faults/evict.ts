/** evict: memory pressure on a cache node (Redis or memcached) until it evicts, under one eviction policy. */
import { EVICT_POLICIES, type EvictPolicy } from '../eviction.js';
import type { ServerVictim, Span } from '../fault-window.js';
import type { FaultKindSpec } from './fault-kind.js';

/** Memory pressure on a cache node under this eviction policy (core/generator/eviction.ts). */
export type EvictWindow = Span & { fault: 'evict'; target: ServerVictim; policy: EvictPolicy };

export const evict: FaultKindSpec<EvictWindow> = {
  kind: 'evict',
  what: 'a cache node filled until it evicts keys',
  ops: { start: 'start-evict', stops: ['stop-evict'], shade: 'evict' },
  needs: { backend: 'evictable', why: "the evict fault fills a cache server's memory until it evicts keys", lacking: (b) => `${b} is not a cache` },
  seededLength: 'duration',
  seededDrawsNode: true,
  seeded: (span, d) => ({ ...span, fault: 'evict', target: d.serverVictim(), policy: d.evictPolicy ?? 'allkeys-lru' }),
  scripted: (w, span, f) => {
    const policy = (EVICT_POLICIES as readonly unknown[]).includes(w['policy'])
      ? (w['policy'] as EvictPolicy)
      : f.bad('policy', EVICT_POLICIES.join(' or '), w['policy']);
    return { ...span, fault: 'evict', target: f.serverVictim(w['target']), policy };
  },
  // Memory pressure takes seconds to fill a cache: aimed at a held lock, or at a planned time.
  huntEvents: ['held', 'time'],
  // Long enough for the filler to push the node past maxmemory and the lock key out.
  hunted: (d) => ({
    ...d.span(d.between(Math.max(3000, d.lease * 2), Math.max(6000, d.lease * 4))),
    fault: 'evict',
    target: { kind: 'leader' },
    policy: d.rng.pick(EVICT_POLICIES),
  }),
};
