/**
 * The containers provider's ClusterProvider: a Docker daemon's containers,
 * one cluster a machine (core/plan/providers.ts says why). Its start is
 * loaded only when chosen (start-container-cluster.ts brings in
 * testcontainers); its doctor's checks run on every `fencecheck doctor`,
 * advisory when another provider is chosen; its clusters are reused within
 * one command, not kept for the next (no `keeps`). What its runs leave is
 * reclaim-containers.ts' (by label).
 */
import { DEFAULT_SUBNET } from '../../../core/cluster/cluster-plan.js';
import type { ClusterProvider } from '../cluster-provider.js';
import { rangeCheck } from '../doctor-range.js';
import { containerChecks } from './doctor-containers.js';

export const containers: ClusterProvider & { name: 'containers' } = {
  name: 'containers',
  start: async (opts) => (await import('./start-container-cluster.js')).startContainerCluster(opts),
  doctor: {
    always: containerChecks,
    // The range only once a daemon answers: its network takes the plan's /24.
    chosen: async (opts, always) => [...(always ?? []), ...(always?.[0]?.ok ? [await rangeCheck(opts.subnet ?? DEFAULT_SUBNET)] : [])],
    leftovers: ['containers'],
  },
};
