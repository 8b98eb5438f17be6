/**
 * How many fault events a plan's windows hold (pure): a window on one target
 * is one, a clock jump on a set of nodes one on each (the nemesis records an
 * offset per node, and a shrink counts each node as a fault). What "M
 * planned" counts beside the struck faults the history shows.
 */
import type { FaultWindow } from './faults/registry.js';

export function faultEvents(windows: readonly FaultWindow[]): number {
  // Guarded: a stored script (test.json of an older run) is read back as it was written.
  return windows.reduce((n, w) => n + (w.fault === 'clock' && w.target?.kind === 'nodes' && Array.isArray(w.target.nodes) ? w.target.nodes.length : 1), 0);
}
