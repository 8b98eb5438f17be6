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
import { UsageError } from '../errors.js';
import type { EvictPolicy } from './eviction.js';
import { Prng } from '../random/prng.js';
import { expectNonNegative, expectPositive } from './expect-option.js';
import { FAULT_KINDS, faultSpec, type FaultKind, type FaultWindow } from './faults/registry.js';
import { GRUDGE_KINDS, type GrudgeKind, type ServerVictim } from './fault-window.js';
import type { SeededDraws } from './faults/fault-kind.js';

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
