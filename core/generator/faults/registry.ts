/**
 * Every fault kind's pure half, once: a mapped type over FaultKind, so a new
 * kind does not compile until it says how it is drawn, scripted and hunted.
 * Its live half is runtime/runner/faults/registry.ts.
 */
import type { FaultKind } from '../nemesis-schedule.js';
import { clientPause } from './client-pause.js';
import { clock } from './clock.js';
import { delay } from './delay.js';
import { evict } from './evict.js';
import type { FaultKindSpec } from './fault-kind.js';
import { kill } from './kill.js';
import { loss } from './loss.js';
import { partition } from './partition.js';
import { serverPause } from './server-pause.js';
import { sessionEnd } from './session-end.js';

export const FAULT_SPECS: { [K in FaultKind]: FaultKindSpec<K> } = {
  'client-pause': clientPause,
  'server-pause': serverPause,
  partition,
  kill,
  clock,
  delay,
  loss,
  evict,
  'session-end': sessionEnd,
};

/** One kind's spec, for a caller holding any kind (its window is then any window). */
export function faultSpec(kind: FaultKind): FaultKindSpec<FaultKind> {
  return FAULT_SPECS[kind];
}
