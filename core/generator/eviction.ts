/**
 * The `evict` fault, the pure part: a cache server under memory pressure.
 * Teams run Redis (and memcached) as a cache with a memory limit and an
 * eviction policy, and put their locks on the same server; when the cache
 * fills, the server evicts keys, a lock key among them, and the next client's
 * `SET NX` wins while the first still believes it holds the lock.
 *
 * The fault sets a memory limit a little above what the server uses now and
 * an eviction policy, then writes filler keys (cache entries with a TTL, as a
 * cache's are) at a steady rate for the whole window, so a lock key set
 * during the window is evicted too once enough newer entries have arrived.
 * `volatile-lru` evicts only keys with a TTL (the lock key has one, a fence
 * counter has none); `allkeys-lru` evicts any key, so Redis's `INCR` fence
 * counter can go too (the next token starts again at 1).
 *
 * What was evicted is recorded exactly: Redis publishes every evicted key on
 * `__keyevent@0__:evicted` (keyspace notifications `Ee`), and `INFO stats`
 * counts `evicted_keys`; memcached counts `evictions` in `stats`.
 */

export const EVICT_POLICIES = ['allkeys-lru', 'volatile-lru'] as const;
export type EvictPolicy = (typeof EVICT_POLICIES)[number];

/** Filler keys start so: any evicted key without it is the lock service's own (a lock key, a fence counter). */
export const FILLER_PREFIX = 'fc-evict:';

export interface PressurePlan {
  /** The memory limit set, bytes: what the server used when the fault started plus `headroomBytes`. */
  maxmemoryBytes: number;
  /** One filler value's size. */
  valueBytes: number;
  /** Fillers written per tick, and the tick. */
  batch: number;
  everyMs: number;
  /** Each filler's TTL, s: a cache entry's, long against any run. */
  fillerTtlS: number;
}

/**
 * Why these sizes: 256 KiB of headroom holds ~250 fillers of 1 KiB, and 50
 * fillers every 20 ms (2.5 MB/s, a busy but ordinary cache) turn it over in
 * about 100 ms, so a lock key lives on a full cache for a fraction of a
 * second: well inside a lease of seconds, as the issue trackers reported.
 */
export function pressurePlan(usedMemoryBytes: number, headroomBytes = 256 * 1024): PressurePlan {
  if (!(Number.isSafeInteger(usedMemoryBytes) && usedMemoryBytes >= 0)) throw new RangeError(`Expected used memory in bytes, got ${usedMemoryBytes}`);
  return { maxmemoryBytes: usedMemoryBytes + headroomBytes, valueBytes: 1024, batch: 50, everyMs: 20, fillerTtlS: 3600 };
}

export const isFiller = (key: string): boolean => key.startsWith(FILLER_PREFIX);
