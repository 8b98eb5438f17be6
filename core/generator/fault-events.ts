/**
 * How many fault events a plan's windows hold (pure): a window on one target
 * is one, a clock jump on a set of nodes one on each (the nemesis records an
 * offset per node, and a shrink counts each node as a fault). What "M
 * planned" counts beside the struck faults the history shows.
 */
import type { FaultWindow } from './faults/registry.js';

export function faultEvents(windows: readonly FaultWindow[]): number {
  // Guarded: a stored script (test.json of an older run) is read back as it was written.
  return windows.reduce((n, w) => n + nodesStruck(w), 0);
}

/** A window aimed at a set of nodes (a clock jump's `{"kind":"nodes"}`: whichever kind's target is a NodeSet) counts each node. */
function nodesStruck(w: FaultWindow): number {
  const target: unknown = 'target' in w ? w.target : undefined;
  if (typeof target !== 'object' || target === null || !('kind' in target) || target.kind !== 'nodes' || !('nodes' in target)) return 1;
  return Array.isArray(target.nodes) ? target.nodes.length : 1;
}
