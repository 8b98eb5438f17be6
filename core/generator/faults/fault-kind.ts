/**
 * What fencecheck knows of one fault kind, in its pure half (the other half,
 * how it strikes the live cluster and is undone, is its module in
 * runtime/runner/faults/; the simulation runs that same module over a
 * simulated nemesis port). Jepsen's nemesis packages are the model: one
 * place per kind for how it is drawn from a seed, read from `--script`, and
 * aimed and sized by a hunt.
 *
 * Every draw a kind makes is made in the order the schedules always made it:
 * a seed's schedule and a hunt seed's windows must not move when a kind is
 * added or rewritten (test/generators pins them).
 */
import type { Value } from '../../history/op.js';
import type { Prng } from '../../random/prng.js';
import type { EvictPolicy } from '../eviction.js';
import type { ClientVictim, GrudgeKind, NodeSet, PartitionTarget, ServerVictim, Span, TriggerEvent } from '../fault-window.js';

/** Any kind's window: a span and its `fault`; each spec module names its own (faults/registry.ts derives FaultWindow from them). */
export type AnyWindow = Span & { fault: string };
type Obj = Record<string, unknown>;

/** The seeded schedule's streams and amounts (nemesis-schedule.ts), shared by every kind. */
export interface SeededDraws {
  /** The server a fault hits: the leader, the configured node or one drawn from the target stream. */
  serverVictim(): ServerVictim;
  /** The sign of a clock jump. */
  signs: Prng;
  /** The partition shape and its halves. */
  shapeRng: Prng;
  shapes: readonly GrudgeKind[];
  nodes: readonly string[];
  amounts: { offsetMs: number; delayMs: number; lossPercent: number };
  evictPolicy: EvictPolicy | undefined;
}

/** A `--script` window's field readers (parse-script.ts): each names the bad field and throws. */
export interface ScriptFields {
  bad(field: string, expected: string, got: unknown): never;
  ms(field: string, v: unknown): number;
  clientVictim(t: unknown): ClientVictim;
  serverVictim(t: unknown): ServerVictim;
  /** A server victim, or several named servers (`{"kind":"nodes","nodes":[…]}`). */
  serversVictim(t: unknown): ServerVictim | NodeSet;
  partitionTarget(t: unknown): PartitionTarget;
}

/** A hunt's window draws (src/hunt/hunt-windows.ts), sized from the lease. */
export interface HuntDraws {
  lease: number;
  /** A whole number of ms in [lo, hi], drawn. */
  between(lo: number, hi: number): number;
  /** The window starting at the drawn time (and trigger), lasting `lengthMs` (cut at the time limit). */
  span(lengthMs: number): Span;
  /** The event's client: the acquirer for an acquire, else the holder. */
  client: ClientVictim;
  /** A server victim, drawn: the leader or one named node. */
  server(): ServerVictim;
  /** The target's server names (empty: a single server, or none). */
  nodes: readonly string[];
  /** A partition of one of the target's shapes, drawn. */
  partition(): PartitionTarget;
  rng: Prng;
}

/** How a timeline shades a fault: both pauses look alike there, a session's end is a moment. */
export type FaultShade = 'partition' | 'pause' | 'kill' | 'clock' | 'delay' | 'loss' | 'evict' | 'session';

/**
 * How a history names a kind's nemesis ops (docs/lock-workloads.md), read
 * by everything that looks at faults in a history (the evidence, the near
 * misses, the report's windows, the simulation) through fault-of-op.ts, and
 * recorded by its live half through the strike (runtime/runner/faults/strike.ts),
 * so that what is recorded and what is read cannot drift apart.
 */
export interface FaultOps {
  /** The op that strikes it: an invoke, then an info (an info alone when a triggered window was skipped). */
  start: string;
  /** The ops that undo it: its window ends at their completion (`heal` ends every window too). None, and no `undoes`: a moment, nothing is undone. */
  stops: readonly string[];
  /** Whether a start op with this value undoes a strike instead (a clock offset back to 0). */
  undoes?: (value: Value) => boolean;
  /**
   * Among kinds that share a start op (a client and a server pause are both
   * `pause`), whether this kind made this one; the kind without `claims` is
   * the rest. A value naming its `fault` decides before this is asked.
   */
  claims?: (value: Value, skipped: boolean) => boolean;
  shade: FaultShade;
}

/** A property of a backend's LockSystem (core/systems/lock-system.ts) that a kind needs: a cache's eviction, a lock held in a session. */
export type BackendNeed = 'evictable' | 'sessionLock';

export interface FaultKindSpec<W extends AnyWindow> {
  kind: W['fault'];
  /** Whom it strikes, in words for docs and errors. */
  what: string;
  ops: FaultOps;
  /**
   * What a backend must have for this kind to apply, and the refusal for one
   * without it: `${why}; ${lacking(backend)} (use it on …)`. Absent: any backend.
   */
  needs?: { backend: BackendNeed; why: string; lacking(backend: string): string };
  /** Why a seeded schedule does not drive it (`run --nemesis` refuses it), and where it is driven instead. Absent: it does. */
  unscheduled?: { why: string; hint: string };
  /** A seeded window lasts the client pause (`pause`) or the fault duration. */
  seededLength: 'pause' | 'duration';
  /** Whether its seeded window draws a server node (a run without server nodes cannot schedule it). */
  seededDrawsNode: boolean;
  seeded(span: Span, d: SeededDraws): W;
  /** Its own fields of a `--script` window (target and amounts), each checked. */
  scripted(w: Obj, span: Span, f: ScriptFields): W;
  /** The lock events a hunt aims it at ('time': its planned time), in the order the hunt's arms list them. */
  huntEvents: readonly (TriggerEvent | 'time')[];
  hunted(d: HuntDraws): W;
}
