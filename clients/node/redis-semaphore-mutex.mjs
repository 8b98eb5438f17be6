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
 */
import { Mutex, TimeoutError } from 'redis-semaphore';
import { Fail, log, packageVersion, serve } from './fencecheck-protocol.mjs';
import { connectAll, ioredisConnection, ioredisError } from './ioredis-connection.mjs';

class RedisSemaphoreMutex {
  constructor(config) {
    this.config = config;
    this.redis = ioredisConnection(config.lockEndpoints[0], config.callTimeoutMs);
    this.mutex = null;
  }

  connect() {
    return connectAll([this.redis], 5000);
  }

  async acquire(ttlMs) {
    // One Mutex per critical section (a fresh identifier each time), as the README's examples make one per use.
    const mutex = new Mutex(this.redis, this.config.lockName, {
      lockTimeout: ttlMs,
      acquireTimeout: this.config.callTimeoutMs,
      retryInterval: 20,
      onLockLost: (e) => log(`redis-semaphore: ${e.message}`),
    });
    try {
      await mutex.acquire();
    } catch (e) {
      // TimeoutError: every SET NX until acquireTimeout answered "exists" (an error would have thrown instead).
      if (e instanceof TimeoutError) throw new Fail('held', e.message);
      throw ioredisError(e);
    }
    this.mutex = mutex;
    return { token: mutex.identifier, lease_ms: ttlMs };
  }

  async release() {
    const mutex = this.mutex;
    this.mutex = null;
    try {
      await mutex.release();
    } catch (e) {
      throw ioredisError(e);
    }
  }

  close() {
    this.mutex?.stopRefresh();
    this.redis.disconnect();
  }
}

await serve((c) => new RedisSemaphoreMutex(c), 'unique', {
  'redis-semaphore': await packageVersion('redis-semaphore'),
  ioredis: await packageVersion('ioredis'),
  pg: await packageVersion('pg'),
});
