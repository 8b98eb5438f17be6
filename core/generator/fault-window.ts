/**
 * The words a fault window is made of, shared by every fault kind's spec
 * (faults/) and the schedules: whom it strikes (victims, node sets, partition
 * shapes), the lock events it may wait for (triggers) and its span. Each kind's
 * own window type lives in its spec module, and FaultWindow, the union of
 * them, is derived from the specs in faults/registry.ts: this file imports
 * neither, so the specs and the schedule no longer import each other.
 */
import type { Grudge } from './grudge.js';

export const GRUDGE_KINDS = ['isolate-one', 'halves', 'majorities-ring', 'client-from-servers', 'client-from-resource'] as const;
/**
 * Shapes only scripted scenarios use (never drawn by the seeded schedule, so
 * adding them changed no seed's schedule): redis-sentinel's master cut off
 * from its replicas, or with a minority of the clients (../runner/sentinel-faults.ts).
 */
export const SCRIPTED_GRUDGE_KINDS = ['master-from-replicas', 'master-with-minority'] as const;
export type GrudgeKind = (typeof GRUDGE_KINDS)[number] | (typeof SCRIPTED_GRUDGE_KINDS)[number];

/** A client a fault hits, resolved by the runner when the fault starts: the lock holder, a client whose acquire is in flight, or one worker's client (scripted scenarios). */
export type ClientVictim = { kind: 'holder' } | { kind: 'acquirer' } | { kind: 'client'; worker: number };

/** A server a fault hits: a named node, or the leader (or primary) when the fault starts. */
export type ServerVictim = { kind: 'leader' } | { kind: 'node'; node: string };

export type Victim = ClientVictim | ServerVictim;

/**
 * Several named servers struck at once (clock: Jepsen's clock nemesis bumps a
 * random subset of the nodes: one bad time source that several of them
 * follow). Each node is its own fault event: a shrunk plan counts them so.
 */
export type NodeSet = { kind: 'nodes'; nodes: string[] };

export interface PartitionTarget {
  kind: 'partition';
  grudgeKind: GrudgeKind;
  /** isolate-one: the isolated node (or the leader); client-from-*: the holder. */
  victim?: Victim;
  /** The grudge itself, when it is known before the run (every server-only shape aimed at a named node). */
  grudge?: Grudge;
  /** client-from-servers: the lock servers the client is cut off from (default every one; some of them: the client still sees the others, as a Redlock client may see a different majority). */
  servers?: string[];
}

export type FaultTarget = Victim | NodeSet | PartitionTarget;

/**
 * Lock events a fault can wait for (faults aimed at the moments that matter,
 * issue 18), as the runner sees them in each critical section
 * (../runner/critical-section.ts):
 *
 *   acquire       a client sent its acquire (it is in flight)
 *   grant         an acquire was answered ok: right after a grant
 *   mark          a holder sent its mark (cas-unique modes: the waiter's mark)
 *   holder-read   a holder begins its hold: after its read (lock-counter), after
 *                 its grant or mark otherwise; before its write
 *   write         a holder sent its write to the resource
 *   held          somebody holds the lock (now, or at the next grant)
 *   renew         a holder's lease renewal is due (grant + each third of
 *                 the lease, by the runner's clock: etcd's keep-alive and
 *                 ZooKeeper's session ping go out every third of it); a
 *                 backend whose client does not renew has no such moment
 *   lease-ending  a holder's lease ends within `leadMs` (by the runner's
 *                 reckoning: its grant's time plus the TTL)
 */
export const TRIGGER_EVENTS = ['acquire', 'grant', 'mark', 'holder-read', 'write', 'held', 'lease-ending', 'renew'] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/**
 * A window's start tied to a lock event: from the window's `at` the runner
 * waits up to `withinMs` for the event, then fires and keeps the fault for the
 * window's planned length (`until - at`). A fault aimed at the holder or an
 * acquirer hits the client of the event. No event in time: the window is
 * skipped, and the record says why.
 */
export type Trigger = { on: Exclude<TriggerEvent, 'lease-ending'>; withinMs: number } | { on: 'lease-ending'; withinMs: number; leadMs: number };

/** When a fault starts and stops, in ms since the start of the main phase; with a trigger, `at` is when it begins to wait. */
export interface Span {
  at: number;
  until: number;
  trigger?: Trigger;
}
