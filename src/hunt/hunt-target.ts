/**
 * What a hunt searches over (pure): the target (backend, client, resource,
 * workload), the fault kinds that apply to it, the lock events it has, and
 * each try's run options (a short run whose faults are the try's script).
 */
import { UsageError } from '../../core/errors.js';
import type { RedisPersistence } from '../../core/plan/redis-persistence.js';
import { Prng } from '../../core/random/prng.js';
import { FAULT_KINDS, type FaultKind } from '../../core/generator/faults/registry.js';
import { TRIGGER_EVENTS, type TriggerEvent } from '../../core/generator/fault-window.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { clusterBackendsOf, notApplicable, renewalShareOf, type LockBackend, type LockWorkload, type ResourceMode } from '../../core/vocabulary.js';
import { leaseOf, LONG_HOLD, patienceMsOf, type HuntSpace, type TryPlan } from './search.js';
import type { PartitionShape } from './hunt-windows.js';
import { planCluster } from '../../core/cluster/cluster-plan.js';
import { lockSystem } from '../../core/systems/registry.js';
import { workloadOf } from '../../core/workloads/registry.js';

export interface HuntTarget {
  backend: LockBackend;
  client?: string;
  resource: ResourceMode;
  workload: LockWorkload;
  checkHold?: boolean;
  /** Redis and Redlock: how the servers persist (a kill of a server without persistence restarts it empty: its INCR counter too). */
  redisPersistence?: RedisPersistence;
}

/** The shape of every try: short runs, few clients. */
export interface TryShape {
  timeLimitS: number;
  clients: number;
  ttlMs: number;
}

export const TRY_SHAPE: TryShape = { timeLimitS: 10, clients: 3, ttlMs: 1000 };

/**
 * The fault kinds to hunt with: the ones asked for (each must apply to the
 * target, else a UsageError says why), or every kind that applies.
 */
export function huntFaults(target: HuntTarget, asked: readonly FaultKind[] | undefined): FaultKind[] {
  const whole = notApplicable(target.backend, target.resource, [], true);
  if (whole) throw new UsageError(`Cannot hunt on ${target.backend} / ${target.resource}: ${whole}.`, 'Pick a resource mode the backend applies to.');
  const why = (f: FaultKind): string | undefined => notApplicable(target.backend, target.resource, [f], true);
  if (asked === undefined) return FAULT_KINDS.filter((f) => why(f) === undefined);
  if (asked.length === 0)
    throw new UsageError(
      'Expected `--faults` to name at least one fault kind, got none',
      `Name some of ${FAULT_KINDS.join(', ')}, or leave --faults out to hunt with every kind that applies.`,
    );
  for (const f of asked) {
    const reason = why(f);
    if (reason)
      throw new UsageError(`Cannot hunt with \`${f}\` on ${target.backend} / ${target.resource}: ${reason}.`, 'Leave that fault kind out of --faults.');
  }
  return [...new Set(asked)];
}

/** The lock events this target's critical sections have. */
export function huntEvents(target: HuntTarget): TriggerEvent[] {
  const marks = target.resource === 'cas-unique' || target.resource === 'cas-unique-nonatomic';
  const renews = renewalShareOf(target.backend) !== undefined;
  return TRIGGER_EVENTS.filter((e) => (e === 'mark' ? marks : e === 'write' ? workloadOf(target.workload).accessesResource : e === 'renew' ? renews : true));
}

export function huntSpace(target: HuntTarget, faults: readonly FaultKind[], shape: TryShape): HuntSpace {
  const nodes = huntNodes(target.backend);
  return {
    faults,
    events: huntEvents(target),
    maxWindows: 3,
    timeLimitMs: shape.timeLimitS * 1000,
    ttlMs: shape.ttlMs,
    nodes,
    partitionShapes: partitionShapes(target.backend, nodes),
  };
}

/** The lock service's servers by name, from the pure cluster plan (what a server fault may hit). */
export function huntNodes(backend: LockBackend): string[] {
  if (backend === 'none') return [];
  return planCluster({ backends: clusterBackendsOf(backend) })
    .nodes.filter((n) => n.backend !== 'postgres' && n.role !== 'sentinel')
    .map((n) => n.name);
}

/** The partition shapes a target has: every one that means something for its servers (one server has no "some of them" and no one to isolate it from). */
export function partitionShapes(backend: LockBackend, nodes: readonly string[]): PartitionShape[] {
  const shapes: PartitionShape[] = ['client-from-servers', 'client-from-resource'];
  if (nodes.length >= 3) shapes.push('client-from-some-servers', 'isolate-one');
  if (lockSystem(backend).replicatedMaster === true) shapes.push('master-from-replicas', 'master-with-minority');
  return shapes;
}

/** A try's run options: the target, the shape, the try's script (with delay proxies when it delays), its own workload seed. */
export function tryOptions(target: HuntTarget, shape: TryShape, plan: TryPlan, huntSeed: number, resultsDir: string): RunOptions {
  const kinds = [...new Set(plan.windows.map((w) => w.fault))];
  const leaseSpace = { ttlMs: shape.ttlMs, timeLimitMs: shape.timeLimitS * 1000 };
  return {
    ...DEFAULTS,
    backend: target.backend,
    resource: target.resource,
    workload: target.workload,
    ...(target.client !== undefined ? { client: target.client } : {}),
    checkHold: target.checkHold ?? false,
    ...(target.redisPersistence !== undefined ? { redisPersistence: target.redisPersistence } : {}),
    nemesis: kinds,
    script: plan.windows,
    ...(kinds.includes('delay') ? { proxies: 'both' as const } : {}),
    timeLimitS: shape.timeLimitS,
    clients: shape.clients,
    ttlMs: leaseOf(leaseSpace, plan.hold),
    ...(plan.hold === 'long' ? { holdMs: Math.round(leaseOf(leaseSpace, 'long') * LONG_HOLD.holdShare) } : {}),
    ...(plan.patience === 'long' ? { callTimeoutMs: patienceMsOf(plan, leaseSpace) } : {}),
    rate: 3,
    recoverMs: 2000,
    intervalMs: 1000,
    seed: new Prng(huntSeed).fork(`workload-${plan.index}`).seed % 2_147_483_647,
    resultsDir,
    name: `try-${String(plan.index + 1).padStart(3, '0')}`,
  };
}
