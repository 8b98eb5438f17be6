/**
 * The containers provider's leftovers (provider-leftovers.ts): everything with the project's label, slot 0's (one
 * cluster a machine). A run the state file says was on containers has its data dirs removed from inside first.
 */
import { removableDataDirs } from '../data-dirs.js';
import type { ProviderLeftovers } from '../reclaim-report.js';
import { reclaimContainers, reclaimContainersSync } from './reclaim-containers.js';

export const containerLeftovers: ProviderLeftovers = {
  reclaim: async (state, slot, { keepData }) =>
    slot === 0 ? { containers: await reclaimContainers(undefined, state?.provider === 'containers' && !keepData ? removableDataDirs(state) : []) } : {},
  // Only for a run the state file says was on containers (the asynchronous reclaim looks by label whatever it says).
  reclaimSync: (state, slot) => {
    if (state?.provider === 'containers' && slot === 0) reclaimContainersSync();
  },
};
