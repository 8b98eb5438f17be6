/**
 * BackendAdapter: the I/O half of one backend, beside its pure ServerSystem
 * and LockSystem in core/systems/: how its servers are started (its spec,
 * from the run's server options), its half of a warm reset and clean check,
 * and the memory pressure the evict fault puts on it, where it is a cache.
 * One file per backend (`<backend>-adapter.ts`), listed once in registry.ts.
 */
import type { BackendReset, ServerSpec } from '../../hosts/driver.js';
import type { PressureHook } from '../../nemesis/pressure.js';
import type { RedisOptions } from './redis.js';
import type { RedisSentinelOptions } from './redis-sentinel.js';
import type { ZookeeperOptions } from './zookeeper.js';

/** The server options of a run, per backend that reads any (core/systems SystemClusterOptions gives redisSentinel's). */
export interface BackendOptions {
  redis?: RedisOptions;
  redlock?: RedisOptions;
  zookeeper?: ZookeeperOptions;
  redisSentinel?: RedisSentinelOptions;
}

export interface BackendAdapter {
  /** What its servers are and how they start, stop and answer (runtime/hosts/driver.ts ServerSpec). */
  spec(opts: BackendOptions): ServerSpec;
  /** Its half of a warm cluster's reset and clean check; a separate module, as a reset module reads its spec module's constants at load. */
  reset: BackendReset;
  /** Memory pressure on one of its nodes until it evicts (the evict fault); absent where it is no cache. */
  pressure?: PressureHook;
}
