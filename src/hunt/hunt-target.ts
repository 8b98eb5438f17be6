/**
 * What a hunt searches over (pure): the target (backend, client, resource,
 * workload), the fault kinds that apply to it, the lock events it has, and
 * each try's run options (a short run whose faults are the try's script).
 */
import { UsageError } from '../../core/errors.js';
import { Prng } from '../../core/random/prng.js';
import { FAULT_KINDS, TRIGGER_EVENTS, type FaultKind, type TriggerEvent } from '../../core/generator/nemesis-schedule.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import { notApplicable, type LockBackend, type LockWorkload, type ResourceMode } from '../../core/vocabulary.js';
import type { HuntSpace, TryPlan } from './search.js';

export interface HuntTarget {
  backend: LockBackend;
  client?: string;
  resource: ResourceMode;
  workload: LockWorkload;
  checkHold?: boolean;
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
  if (asked.length === 0) throw new UsageError('Expected `--faults` to name at least one fault kind, got none', `Name some of ${FAULT_KINDS.join(', ')}, or leave --faults out to hunt with every kind that applies.`);
  for (const f of asked) {
    const reason = why(f);
    if (reason) throw new UsageError(`Cannot hunt with \`${f}\` on ${target.backend} / ${target.resource}: ${reason}.`, 'Leave that fault kind out of --faults.');
  }
  return [...new Set(asked)];
}

/** The lock events this target's critical sections have. */
export function huntEvents(target: HuntTarget): TriggerEvent[] {
  const marks = target.resource === 'cas-unique' || target.resource === 'cas-unique-nonatomic';
  return TRIGGER_EVENTS.filter((e) => (e === 'mark' ? marks : e === 'write' ? target.workload !== 'mutex' : true));
}

export function huntSpace(target: HuntTarget, faults: readonly FaultKind[], shape: TryShape): HuntSpace {
  return { faults, events: huntEvents(target), maxWindows: 3, timeLimitMs: shape.timeLimitS * 1000, ttlMs: shape.ttlMs };
}

/** A try's run options: the target, the shape, the try's script (with delay proxies when it delays), its own workload seed. */
export function tryOptions(target: HuntTarget, shape: TryShape, plan: TryPlan, huntSeed: number, resultsDir: string): RunOptions {
  const kinds = [...new Set(plan.windows.map((w) => w.fault))];
  return {
    ...DEFAULTS,
    backend: target.backend,
    resource: target.resource,
    workload: target.workload,
    ...(target.client !== undefined ? { client: target.client } : {}),
    checkHold: target.checkHold ?? false,
    nemesis: kinds,
    script: plan.windows,
    ...(kinds.includes('delay') ? { proxies: 'both' as const } : {}),
    timeLimitS: shape.timeLimitS,
    clients: shape.clients,
    ttlMs: shape.ttlMs,
    rate: 3,
    recoverMs: 2000,
    intervalMs: 1000,
    seed: new Prng(huntSeed).fork(`workload-${plan.index}`).seed % 2_147_483_647,
    resultsDir,
    name: `try-${String(plan.index + 1).padStart(3, '0')}`,
  };
}
