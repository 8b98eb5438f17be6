/**
 * `startCluster`: from nothing to every requested backend ready, on the
 * provider the options name (namespaces by default), chosen once by name
 * (provider-registry.ts). start-on-provider.ts is the one start-up; each
 * provider's own parts are its module (namespaces-provider.ts,
 * containers/containers-provider.ts).
 */
import type { Cluster } from './cluster.js';
import { clusterProvider } from './provider-registry.js';
import type { StartClusterOptions } from './start-options.js';
import { chosenSubnet } from './chosen-subnet.js';

export type { StartClusterOptions } from './start-options.js';
export { PROVIDERS, type ProviderName } from '../../core/plan/providers.js';

export function startCluster(opts: StartClusterOptions): Promise<Cluster> {
  return clusterProvider(opts.provider).start(opts);
}

export { chosenSubnet };
