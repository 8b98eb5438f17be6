/**
 * Every fault kind's pure half, once, and what follows from the list: the
 * kinds (FAULT_KINDS, in the order seeds draw them), a kind's spec, and
 * FaultWindow, the union of the window types the specs declare, so a new
 * kind is its module and one line here (and its live half in
 * runtime/runner/faults/registry.ts, a mapped type over FaultKind that does
 * not compile until it is there).
 */
import { clientPause } from './client-pause.js';
import { clock } from './clock.js';
import { delay } from './delay.js';
import { evict } from './evict.js';
import type { AnyWindow, FaultKindSpec } from './fault-kind.js';
import { kill } from './kill.js';
import { loss } from './loss.js';
import { partition } from './partition.js';
import { serverPause } from './server-pause.js';
import { sessionEnd } from './session-end.js';

/** New kinds go at the end, and draw only when chosen: a fault list without them keeps every seed's schedule. */
export const FAULT_KINDS = ['client-pause', 'server-pause', 'partition', 'kill', 'clock', 'delay', 'loss', 'evict', 'session-end'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

// `satisfies` holds the table to FAULT_KINDS (no kind missing, none extra) and keeps each spec's own window type.
export const FAULT_SPECS = {
  'client-pause': clientPause,
  'server-pause': serverPause,
  partition,
  kill,
  clock,
  delay,
  loss,
  evict,
  'session-end': sessionEnd,
} as const satisfies { [K in FaultKind]: FaultKindSpec<AnyWindow & { fault: K }> };

type WindowOfSpec<S> = S extends FaultKindSpec<infer W> ? W : never;

/**
 * One fault window, a union keyed on `fault`, each kind's as its spec declares
 * it: each carries exactly what it needs (a clock jump its offset, a delay its
 * link and amount), so the runner needs no defaults and no casts.
 */
export type FaultWindow = { [K in FaultKind]: WindowOfSpec<(typeof FAULT_SPECS)[K]> }[FaultKind];
/** The window of one kind. */
export type WindowOf<K extends FaultKind> = FaultWindow & { fault: K };

/** One kind's spec, for a caller holding any kind (its window is then any window). */
export function faultSpec(kind: FaultKind): FaultKindSpec<FaultWindow> {
  return FAULT_SPECS[kind];
}

/** Whether a name (a flag's, a stored file's) is a fault kind. */
export function isFaultKind(f: string): f is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(f);
}
