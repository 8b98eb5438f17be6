import { describe, expect, it } from 'vitest';
import { providerLines } from '../../runtime/cluster/containers/doctor-containers.js';

describe('providerLines', () => {
  it('a provider is usable when its checks pass; leftovers do not make it unusable', () => {
    const [ns, ct] = providerLines(
      [
        { name: 'ip', ok: true, detail: '/usr/sbin/ip' },
        { name: 'leftovers', ok: false, detail: 'namespaces fc-sw' },
      ],
      [
        { name: 'docker', ok: true, detail: 'daemon 20.10' },
        { name: 'containers', ok: false, detail: '3 with the label' },
      ],
    );
    expect(ns).toMatchObject({ name: 'provider namespaces', advisory: true, detail: 'usable here' });
    expect(ct).toMatchObject({ name: 'provider containers', advisory: true, detail: 'usable here' });
  });

  it('says why not, naming each failed check', () => {
    const [ns, ct] = providerLines(
      [{ name: 'privileges', ok: false, detail: 'not root' }],
      [{ name: 'docker', ok: false, detail: 'the daemon does not answer' }],
    );
    expect(ns?.detail).toBe('not usable here: privileges (not root)');
    expect(ct?.detail).toBe('not usable here: docker (the daemon does not answer)');
  });

  it('a provider not checked is said to be not checked, not usable', () => {
    expect(providerLines(undefined, [])[0]?.detail).toMatch(/^not checked/);
  });
});
