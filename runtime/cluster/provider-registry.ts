/**
 * Every provider's ClusterProvider, once, keyed by its name: a mapped type
 * over ProviderName, so a new provider does not compile until it is here (and
 * in provider-leftovers.ts, and in core/plan/providers.ts' facts).
 */
import type { ProviderName } from '../../core/plan/providers.js';
import type { ClusterProvider } from './cluster-provider.js';
import { containers } from './containers/containers-provider.js';
import { namespaces } from './namespaces-provider.js';

export const CLUSTER_PROVIDERS: { [K in ProviderName]: ClusterProvider & { name: K } } = { namespaces, containers };

/** The provider of that name (namespaces, the default, when none is named). */
export function clusterProvider(name: ProviderName | undefined): ClusterProvider {
  return CLUSTER_PROVIDERS[name ?? 'namespaces'];
}
