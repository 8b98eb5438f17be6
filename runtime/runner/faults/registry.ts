/**
 * Every fault kind's module, once: a mapped type over FaultKind, so a new
 * kind does not compile until it has its module here (its start op, and how
 * it strikes and is undone).
 */
import type { FaultKind } from '../../../core/generator/faults/registry.js';
import { clientPause } from './client-pause.js';
import { delay } from './delay.js';
import { evict } from './evict.js';
import { partition } from './partition.js';
import { clock, kill, loss, serverPause } from './server-faults.js';
import { sessionEnd } from './session-end.js';
import type { FaultModule } from './strike.js';

export const FAULT_MODULES: { [K in FaultKind]: FaultModule<K> } = {
  'client-pause': clientPause,
  'server-pause': serverPause,
  kill,
  clock,
  loss,
  partition,
  delay,
  evict,
  'session-end': sessionEnd,
};
