/** The address range check of `fencecheck doctor`, on every provider: the plan's /24 must not be routed here already. */
import { parseSubnet } from '../../core/cluster/cluster-plan.js';
import type { DoctorCheck } from './doctor-check.js';
import { conflictingRoutes, routesInUse } from './preflight.js';

export async function rangeCheck(subnet: string): Promise<DoctorCheck> {
  const clash = conflictingRoutes(await routesInUse(), parseSubnet(subnet));
  return clash.length === 0
    ? { name: 'address range', ok: true, detail: `${subnet} is free` }
    : {
        name: 'address range',
        ok: false,
        detail: `${subnet} is routed here: ${clash.map((r) => `${r.dst} dev ${r.dev ?? '?'}`).join(', ')}`,
        hint: 'Pass another private /24 with `--subnet`.',
      };
}
