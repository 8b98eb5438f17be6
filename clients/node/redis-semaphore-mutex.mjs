#!/usr/bin/env node
/**
 * redis-semaphore's Mutex (npm redis-semaphore 5.8.0, over ioredis 5) as a fencecheck client,
 * used as its README shows: `new Mutex(redis, key, { lockTimeout, acquireTimeout, retryInterval,
 * onLockLost })`, `await mutex.acquire()`, `await mutex.release()`. One Redis node (`--backend redis`).
 *
 * What its source does (node_modules/redis-semaphore/lib/{Lock,mutex/*}.js, read for this client):
 * - acquire: `SET key identifier PX lockTimeout NX` every retryInterval until acquireTimeout;
 *   returns when one answers OK, throws TimeoutError when the time is up.
 * - It refreshes the lock by itself every 0.8 × lockTimeout (PEXPIRE if the value is still ours)
 *   and calls onLockLost when a refresh finds the key gone; the default onLockLost throws an
 *   unhandled LostLockError (it would kill the process), so we pass one that logs, as the README's
 *   example does. A paused process refreshes nothing: its lock expires after lockTimeout.
 * - A refresh whose Redis command FAILS (a timeout, a refused command during a partition) is not
 *   caught (mutex/refresh.js has no catch, Lock._processRefresh only a finally): the rejection of
 *   the timer's promise is unhandled, and Node 20 ends the process (exit 1), onLockLost never
 *   called. Seen here with ioredis refusing the command (/tmp script: Mutex with refreshInterval 50
 *   over an unreachable Redis → "Stream isn't writeable …", exit 1). We keep it: it is what a user
 *   of the library gets; a run shows it as the client exiting mid-run. (RedlockMutex's refresh
 *   catches per node, so it does not crash.)
 * - release: a Lua compare-and-delete whose result it ignores (release cannot say "not ours").
 * Token: `mutex.identifier`, a random UUID per Mutex: unique, no order. No fencing token.
 * TimeoutError is answered `fail held`: every SET NX until acquireTimeout answered "exists" (a
 * failing SET would have thrown its own error instead, answered info).
 */
import { Mutex } from 'redis-semaphore';
import { packageVersion, serve } from './fencecheck-protocol.mjs';
import { RedisSemaphoreLock } from './redis-semaphore-lock.mjs';

await serve((c) => new RedisSemaphoreLock(c, (nodes, key, options) => new Mutex(nodes[0], key, options)), 'unique', {
  'redis-semaphore': await packageVersion('redis-semaphore'),
  ioredis: await packageVersion('ioredis'),
  pg: await packageVersion('pg'),
});
