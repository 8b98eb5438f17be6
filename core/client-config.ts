/**
 * The one ClientConfig builder: the run, client-check and the simulation
 * configure their lock clients through it, so the simulation tests the
 * configuration the real clients get (the lock's name per backend, the
 * system's own client options) instead of a copy of it.
 */
import type { ClientConfig } from './client-protocol.js';
import { lockNameOf, systemClientOptions, type SystemRun } from './systems/registry.js';

/** The lock's base name in a run (ZooKeeper's is the znode `/fencecheck-lock`: lockNameOf). */
export const RUN_LOCK_NAME = 'fencecheck-lock';

/** What a caller knows of one client; the lock's name and the system's options are derived here. */
export interface ClientConfigInput extends Omit<ClientConfig, 'lockName' | 'backend' | 'waitReplicas'> {
  /** The run's options a lock system reads (backend, and redis-sentinel's waitReplicas). */
  system: SystemRun;
  /** The lock's base name (RUN_LOCK_NAME in a run); the backend spells it (lockNameOf). */
  lockBase: string;
}

export function clientConfigOf(i: ClientConfigInput): ClientConfig {
  const { system, lockBase, ...rest } = i;
  return { ...rest, backend: system.backend, lockName: lockNameOf(system.backend, lockBase), ...systemClientOptions(system) };
}
