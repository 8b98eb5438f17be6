import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../core/plan/providers.js';
import { providerLine } from '../../runtime/cluster/doctor.js';
import { CLUSTER_PROVIDERS } from '../../runtime/cluster/provider-registry.js';

describe('providerLine', () => {
  it('a provider is usable when its checks pass; its leftovers do not make it unusable', () => {
    const ns = providerLine('namespaces', [
      { name: 'ip', ok: true, detail: '/usr/sbin/ip' },
      { name: 'leftovers', ok: false, detail: 'namespaces fc-sw' },
    ]);
    const ct = providerLine('containers', [
      { name: 'docker', ok: true, detail: 'daemon 20.10' },
      { name: 'containers', ok: false, detail: '3 with the label' },
    ]);
    expect(ns).toMatchObject({ name: 'provider namespaces', advisory: true, detail: 'usable here' });
    expect(ct).toMatchObject({ name: 'provider containers', advisory: true, detail: 'usable here' });
  });

  it('says why not, naming each failed check', () => {
    expect(providerLine('namespaces', [{ name: 'privileges', ok: false, detail: 'not root' }]).detail).toBe('not usable here: privileges (not root)');
    expect(providerLine('containers', [{ name: 'docker', ok: false, detail: 'the daemon does not answer' }]).detail).toBe(
      'not usable here: docker (the daemon does not answer)',
    );
  });

  it('a provider not checked is said to be not checked, not usable', () => {
    expect(providerLine('namespaces', undefined).detail).toMatch(/^not checked/);
  });

  it("one provider's leftovers are not another's: a failed check of that name blocks elsewhere", () => {
    expect(providerLine('namespaces', [{ name: 'containers', ok: false, detail: 'x' }]).detail).toBe('not usable here: containers (x)');
  });

  it('every provider is checked when chosen; only the containers provider whichever is chosen (the namespaces checks need root and a scratch namespace)', () => {
    for (const p of PROVIDERS) expect(typeof CLUSTER_PROVIDERS[p].doctor.chosen, p).toBe('function');
    expect(PROVIDERS.filter((p) => CLUSTER_PROVIDERS[p].doctor.always !== undefined)).toEqual(['containers']);
  });
});
