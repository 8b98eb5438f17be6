/**
 * The nemesis: grudges (pure partition math), the seeded PRNG they take, and
 * the Nemesis facade that applies faults to a running cluster (see
 * nemesis.ts for each fault and its limits).
 */
export { Nemesis, type Target } from './nemesis.js';
export type { DelayProxy, DelayProxyOptions } from './delay-proxy-handle.js';
export {
  blockedPairs,
  bridge,
  bridgeOf,
  clientFromResource,
  clientFromServers,
  completeGrudge,
  cutOff,
  grudgeHosts,
  halvesOf,
  isolateOne,
  majoritiesRing,
  majoritiesRingOf,
  mergeGrudges,
  randomHalves,
  type Grudge,
} from '../../core/generator/grudge.js';
export { shuffle, type Rng } from '../../core/generator/rng.js';
