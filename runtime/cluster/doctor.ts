/**
 * `fencecheck doctor`: can this machine run real clusters with real faults?
 * Each check says what it found; a failed one says what is wrong and how to
 * fix it. The chosen provider's checks (namespaces by default; each provider's
 * are its own, namespace-doctor.ts and containers/doctor-containers.ts), then a
 * line per provider saying whether this machine can use it: a provider that
 * checks cheaply (`always`) is reported there even when not chosen, advisory,
 * so a machine without Docker still passes `fencecheck doctor` for namespaces.
 */
import { PROVIDERS, type ProviderName } from '../../core/plan/providers.js';
import type { DoctorOptions } from './cluster-provider.js';
import type { DoctorCheck } from './doctor-check.js';
import { CLUSTER_PROVIDERS } from './provider-registry.js';

export type { DoctorCheck } from './doctor-check.js';

export async function runDoctor(opts: DoctorOptions & { provider?: ProviderName } = {}): Promise<DoctorCheck[]> {
  const chosen = opts.provider ?? 'namespaces';
  const always = new Map<ProviderName, DoctorCheck[] | undefined>();
  for (const p of PROVIDERS) always.set(p, await CLUSTER_PROVIDERS[p].doctor.always?.());
  const checks = await CLUSTER_PROVIDERS[chosen].doctor.chosen(opts, always.get(chosen));
  return [...checks, ...PROVIDERS.map((p) => providerLine(p, always.get(p) ?? (p === chosen ? checks : undefined)))];
}

/** Whether a provider can run here, from its checks; its leftovers do not make it unusable. */
export function providerLine(name: ProviderName, checks: readonly DoctorCheck[] | undefined): DoctorCheck {
  if (checks === undefined) return { name: `provider ${name}`, ok: true, advisory: true, detail: 'not checked (run `fencecheck doctor` without --provider)' };
  const leftovers = CLUSTER_PROVIDERS[name].doctor.leftovers;
  const blocking = checks.filter((c) => !c.ok && !leftovers.includes(c.name));
  return {
    name: `provider ${name}`,
    ok: true,
    advisory: true,
    detail: blocking.length === 0 ? 'usable here' : `not usable here: ${blocking.map((c) => `${c.name} (${c.detail})`).join('; ')}`,
  };
}
