/**
 * redis-semaphore's locks (Mutex over one Redis, RedlockMutex over several) share one
 * interface: `new X(redis | redises, key, options)`, `acquire()` (TimeoutError when the time is
 * up), `identifier`, `release()`, `stopRefresh()`. This is the fencecheck lock over either,
 * used as the README shows; the two clients choose the class and the connections.
 */
import { TimeoutError } from 'redis-semaphore';
import { Fail, log } from './fencecheck-protocol.mjs';
import { connectAll, ioredisConnection, ioredisError } from './ioredis-connection.mjs';

export class RedisSemaphoreLock {
  /** makeMutex(connections, key, options) → a Mutex or RedlockMutex; one connection per endpoint. */
  constructor(config, makeMutex) {
    this.config = config;
    this.makeMutex = makeMutex;
    this.nodes = config.lockEndpoints.map((e) => ioredisConnection(e, config.callTimeoutMs));
    this.mutex = null;
  }

  connect() {
    return connectAll(this.nodes, 5000);
  }

  async acquire(ttlMs) {
    // One mutex per critical section (a fresh identifier each time), as the README's examples make one per use.
    const mutex = this.makeMutex(this.nodes, this.config.lockName, {
      lockTimeout: ttlMs,
      acquireTimeout: this.config.callTimeoutMs,
      retryInterval: 20,
      // The default throws an unhandled LostLockError from a timer, which would end the process.
      onLockLost: (e) => log(`redis-semaphore: ${e.message}`),
    });
    try {
      await mutex.acquire();
    } catch (e) {
      // TimeoutError: every attempt until acquireTimeout was answered "not granted" (see each client for what that means).
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
    for (const n of this.nodes) n.disconnect();
  }
}
