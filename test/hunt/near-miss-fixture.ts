/** Test helper: a near miss with one fault applied and triggered and nothing else, changed by `over` (one literal for every hunt and shrink test). */
import type { NearMiss } from '../../src/hunt/near-miss.js';

export function nearMiss(over: Partial<NearMiss> = {}): NearMiss {
  return {
    violation: false,
    applied: 1,
    triggered: 1,
    doubleHolds: 0,
    refusals: 0,
    pausedGrants: 0,
    lateWrites: 0,
    sessionLateWrites: 0,
    lostGrants: 0,
    tokenRegressions: 0,
    expiredGrants: 0,
    sleptGrants: 0,
    validDoubleHolds: 0,
    foreignReleases: 0,
    ...over,
  };
}
