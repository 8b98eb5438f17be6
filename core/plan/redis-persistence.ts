/**
 * How a Redis server (redis, redlock, redis-sentinel) keeps its data across a
 * restart: a run option (--redis-persistence) and a test.json field, so the
 * words live in core; runtime/cluster/backends/redis.ts turns them into flags.
 */
export const REDIS_PERSISTENCE = ['none', 'aof-everysec', 'aof-always'] as const;
export type RedisPersistence = (typeof REDIS_PERSISTENCE)[number];
