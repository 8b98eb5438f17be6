/**
 * When the nemesis strikes, decided before the run: a list of fault windows
 * `{ at, until, fault, target }` in ms since the start of the main phase.
 *
 * Pure and seeded. The schedule alternates a quiet interval (`intervalMs`)
 * and one fault, until the time limit; a window still open at the limit is
 * cut there (the heal phase heals everything anyway). Which fault, which
 * node and which partition shape come from separate forked streams, so the
 * sequence of faults does not change when a target draw does.
 *
 * Targets are resolved here when they can be (a random node, the shape of a
 * halves or ring partition, computed with the pure grudge functions of
 * core/generator/grudge.ts), and left symbolic when only the running cluster
 * knows them: `holder` (the client holding the lock when the fault starts;
 * if nobody holds it then, the runner waits for the next grant) and `leader`
 * (the service's leader or primary at that moment).
 *
 * Why a client pause lasts twice the lease by default: the paused holder's
 * lease must surely expire, and the lock pass to another client, before the
 * holder wakes up and writes; that is the scenario fencing exists for.
 */
import type { Grudge } from './grudge.js';
import { UsageError } from '../errors.js';
import type { EvictPolicy } from './eviction.js';
import { Prng } from '../random/prng.js';
import { expectNonNegative, expectPositive } from './expect-option.js';
import { faultSpec } from './faults/registry.js';
import type { SeededDraws } from './faults/fault-kind.js';

/** New kinds go at the end, and draw only when chosen: a fault list without them keeps every seed's schedule. */
export const FAULT_KINDS = ['client-pause', 'server-pause', 'partition', 'kill', 'clock', 'delay', 'loss', 'evict', 'session-end'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

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

/**
 * One fault window, a union keyed on `fault`: each kind carries exactly what
 * it needs (a clock jump its offset, a delay its link and amount), so the
 * runner needs no defaults and no casts at the point of use.
 */
export type FaultWindow =
  | (Span & { fault: 'client-pause'; target: ClientVictim })
  | (Span & { fault: 'server-pause' | 'kill'; target: ServerVictim })
  /** The wall-clock offset to apply, ms, forward or back. */
  | (Span & { fault: 'clock'; target: ServerVictim | NodeSet; offsetMs: number })
  /** The percentage of packets dropped to and from the target. */
  | (Span & { fault: 'loss'; target: ServerVictim; lossPercent: number })
  | (Span & { fault: 'partition'; target: PartitionTarget })
  /** ms added to each packet on one of the client's links, to the resource or to the lock service. */
  | (Span & { fault: 'delay'; target: ClientVictim; link: 'resource' | 'lock'; delayMs: number })
  /** Memory pressure on a cache node under this eviction policy (core/generator/eviction.ts). */
  | (Span & { fault: 'evict'; target: ServerVictim; policy: EvictPolicy })
  /** The lock server ends the holder's session (PostgreSQL: pg_terminate_backend); the holder's process lives on, not told. */
  | (Span & { fault: 'session-end'; target: ClientVictim });

export interface NemesisTargets {
  /** The lock service's server nodes, in plan order. */
  nodes: readonly string[];
  /** What server faults (server-pause, kill, clock, delay, loss, isolate-one) aim at: 'leader' ('master' is the same), 'random' (a node drawn from the seed; the default) or a node name. */
  server?: string;
  /** Partition shapes to draw from; default every shape the node count allows. */
  partitions?: readonly GrudgeKind[];
}

export interface NemesisOptions {
  faults: readonly FaultKind[];
  /** Quiet time before each fault, ms. */
  intervalMs: number;
  /** How long each fault lasts, ms (a client pause: `pauseMs`). */
  durationMs: number;
  targets: NemesisTargets;
  /** The lock's TTL, ms: sets the default pause and clock offset. */
  leaseMs?: number;
  /** How long a client pause lasts; default max(durationMs, 2 × leaseMs). */
  pauseMs?: number;
  /** Size of a clock jump; default 2 × leaseMs, or 10 s without a lease. */
  clockOffsetMs?: number;
  /** default 500 ms. */
  delayMs?: number;
  /** default 20 %. */
  lossPercent?: number;
  /** The evict fault's policy; default allkeys-lru (a cache's). */
  evictPolicy?: EvictPolicy;
}

/** The schedule's lengths and amounts, each checked (a UsageError names the bad one), defaults filled. */
function scheduleScale(options: NemesisOptions, timeLimitMs: number) {
  const duration = expectPositive('durationMs', options.durationMs);
  const lease = options.leaseMs === undefined ? undefined : expectPositive('leaseMs', options.leaseMs);
  for (const f of options.faults) {
    if (!(FAULT_KINDS as readonly string[]).includes(f)) throw new UsageError(`Expected a fault among ${FAULT_KINDS.join(', ')}, got \`${f}\``);
  }
  const serverFaults = options.faults.filter((f) => faultSpec(f).seededDrawsNode);
  if (options.targets.nodes.length === 0 && serverFaults.length > 0) {
    throw new UsageError(`Expected at least one server node to aim ${[...new Set(serverFaults)].join(', ')} at, got none`);
  }
  return {
    interval: expectNonNegative('intervalMs', options.intervalMs),
    duration,
    limit: expectNonNegative('timeLimitMs', timeLimitMs),
    pause: expectPositive('pauseMs', options.pauseMs ?? Math.max(duration, 2 * (lease ?? 0))),
    offsetMs: expectPositive('clockOffsetMs', options.clockOffsetMs ?? (lease === undefined ? 10_000 : 2 * lease)),
    delayMs: expectPositive('delayMs', options.delayMs ?? 500),
    lossPercent: expectPositive('lossPercent', options.lossPercent ?? 20),
  };
}

/** The fault windows of a run of `timeLimitMs`, from the seed. */
export function nemesisSchedule(options: NemesisOptions, seed: number, timeLimitMs: number): FaultWindow[] {
  const { interval, duration, limit, pause, ...amounts } = scheduleScale(options, timeLimitMs);
  const aim = aimOf(options.targets);
  const shapes = shapesOf(options.targets);
  if (options.faults.length === 0) return [];

  const root = new Prng(seed).fork('nemesis');
  const faults = root.fork('fault');
  const targets = root.fork('target');
  const shapeRng = root.fork('shape');
  const signs = root.fork('sign');
  const nodes = options.targets.nodes;
  const serverVictim = (): ServerVictim => (aim === 'leader' ? { kind: 'leader' } : { kind: 'node', node: aim === 'random' ? targets.pick(nodes) : aim });

  const draws: SeededDraws = { serverVictim, signs, shapeRng, shapes, nodes, amounts, evictPolicy: options.evictPolicy };

  const windows: FaultWindow[] = [];
  for (let at = interval; at < limit;) {
    const fault = faults.pick(options.faults);
    const spec = faultSpec(fault);
    const until = Math.min(at + (spec.seededLength === 'pause' ? pause : duration), limit);
    windows.push(spec.seeded({ at, until }, draws));
    at = until + interval;
  }
  return windows;
}

function aimOf(t: NemesisTargets): string {
  // A replicated Redis has a master where etcd and ZooKeeper have a leader: the same target.
  const aim = t.server === 'master' ? 'leader' : (t.server ?? 'random');
  if (aim !== 'leader' && aim !== 'random' && !t.nodes.includes(aim)) {
    throw new UsageError(`Expected the server target to be leader, random or one of ${t.nodes.join(', ') || '(no nodes)'}, got \`${aim}\``);
  }
  return aim;
}

/** The fewest nodes each shape needs to mean anything: cutting one node off needs a second. */
const MIN_NODES: Record<GrudgeKind, number> = {
  'isolate-one': 2,
  halves: 2,
  'majorities-ring': 3,
  'client-from-servers': 0,
  'client-from-resource': 0,
  'master-from-replicas': 3,
  'master-with-minority': 3,
};

function shapesOf(t: NemesisTargets): GrudgeKind[] {
  const n = t.nodes.length;
  if (t.partitions === undefined) return GRUDGE_KINDS.filter((k) => n >= MIN_NODES[k]);
  if (t.partitions.length === 0) throw new UsageError('Expected at least one partition shape, got none');
  for (const k of t.partitions) {
    if (!(GRUDGE_KINDS as readonly string[]).includes(k)) throw new UsageError(`Expected a partition shape among ${GRUDGE_KINDS.join(', ')}, got \`${k}\``);
    if (n < MIN_NODES[k]) throw new UsageError(`Expected at least ${MIN_NODES[k]} server nodes for a \`${k}\` partition, got ${n}`);
  }
  return [...t.partitions];
}
