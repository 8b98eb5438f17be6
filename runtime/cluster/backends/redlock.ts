/**
 * Redlock: five independent Redis masters, no replication between them (the
 * algorithm's own assumption: a lock is held when a majority of independent
 * nodes granted it). Each node is an ordinary Redis node of this driver.
 */
import type { ServerSpec } from '../../hosts/driver.js';
import { redisSpec, type RedisOptions } from './redis.js';

export function redlockSpec(opts: RedisOptions = {}): ServerSpec {
  return redisSpec('redlock', opts);
}
