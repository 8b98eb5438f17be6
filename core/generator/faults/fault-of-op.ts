/**
 * A history's nemesis ops read back as fault kinds, derived from each kind's
 * `ops` (fault-kind.ts): the one lookup the evidence, the near misses, the
 * report's windows and the simulation share, where each kept a table of its
 * own that a new kind had to be added to by hand.
 */
import { isValueRecord, type Value } from '../../history/op.js';
import type { FaultKindSpec, FaultShade } from './fault-kind.js';
import { FAULT_SPECS, type FaultKind, type FaultWindow } from './registry.js';

const SPECS: readonly FaultKindSpec<FaultWindow>[] = Object.values(FAULT_SPECS);

/** The kinds each start op may belong to (two when client and server pauses share `pause`). */
const BY_START = new Map<string, FaultKindSpec<FaultWindow>[]>();
for (const spec of SPECS) BY_START.set(spec.ops.start, [...(BY_START.get(spec.ops.start) ?? []), spec]);

const SHADE_OF_STOP = new Map<string, FaultShade>(SPECS.flatMap((spec) => spec.ops.stops.map((stop): [string, FaultShade] => [stop, spec.ops.shade])));

/**
 * The kind a start op struck, or undefined when `f` starts no fault or this
 * value undoes one (a clock offset back to 0). `skipped`: the op is an info
 * with no invoke before it (a triggered window that found no victim).
 */
export function faultOfStart(f: string, value: Value, skipped = false): FaultKind | undefined {
  const candidates = BY_START.get(f);
  if (candidates === undefined || candidates.some((spec) => spec.ops.undoes?.(value) === true)) return undefined;
  if (candidates.length === 1) return candidates[0]!.kind;
  const named = isValueRecord(value) ? candidates.find((spec) => spec.kind === value['fault']) : undefined;
  return (
    named ??
    candidates.find((spec) => spec.ops.claims?.(value, skipped) === true) ??
    candidates.find((spec) => spec.ops.claims === undefined) ??
    candidates[0]!
  ).kind;
}

/** Whether the op strikes a fault (not its undoing). */
export function isFaultStart(f: string, value: Value): boolean {
  return faultOfStart(f, value) !== undefined;
}

/** The shade of the faults an op undoes (a clock offset back to 0 included), or undefined. */
export function shadeOfStop(f: string, value: Value): FaultShade | undefined {
  const stop = SHADE_OF_STOP.get(f);
  if (stop !== undefined) return stop;
  return BY_START.get(f)?.find((spec) => spec.ops.undoes?.(value) === true)?.ops.shade;
}

/** How a timeline shades a kind. */
export function shadeOf(kind: FaultKind): FaultShade {
  return FAULT_SPECS[kind].ops.shade;
}

/** Whether a kind is a moment (nothing is undone: its window is its op's own invoke to info). */
export function isMoment(kind: FaultKind): boolean {
  const ops = FAULT_SPECS[kind].ops;
  return ops.stops.length === 0 && ops.undoes === undefined;
}
