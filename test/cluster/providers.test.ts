import { describe, expect, it } from 'vitest';
import { nonDefaultProvider, PROVIDER_FACTS, PROVIDERS, providerFlag } from '../../core/plan/providers.js';
import { PROVIDER_LEFTOVERS } from '../../runtime/cluster/provider-leftovers.js';
import { CLUSTER_PROVIDERS, clusterProvider } from '../../runtime/cluster/provider-registry.js';

describe('the providers', () => {
  it('are each in the registry under their own name, with leftovers; the default is namespaces', () => {
    for (const p of PROVIDERS) expect(CLUSTER_PROVIDERS[p].name).toBe(p);
    expect(Object.keys(PROVIDER_LEFTOVERS).sort()).toEqual([...PROVIDERS].sort());
    expect(clusterProvider(undefined).name).toBe('namespaces');
  });

  it('keep their clusters for the next command exactly when their facts do not say why not', () => {
    for (const p of PROVIDERS) expect(CLUSTER_PROVIDERS[p].keeps === undefined, p).toBe(PROVIDER_FACTS[p].notKept !== undefined);
  });

  it("reclaim the containers before the namespaces' strays are hunted", () => {
    expect(Object.keys(PROVIDER_LEFTOVERS)).toEqual(['containers', 'namespaces']);
  });

  it('write --provider into a replay only for another than the default', () => {
    expect(providerFlag(undefined)).toEqual([]);
    expect(providerFlag('namespaces')).toEqual([]);
    expect(providerFlag('containers')).toEqual(['--provider', 'containers']);
    expect(nonDefaultProvider('namespaces')).toBeUndefined();
  });
});
