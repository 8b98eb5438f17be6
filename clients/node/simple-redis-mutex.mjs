#!/usr/bin/env node
/**
 * simple-redis-mutex 3.0.0 (over node-redis 5) as a fencecheck client, used as its README shows:
 * `createClient().connect()`, `tryLock(redis, name, { timeout })` → `[hasLock, release]`,
 * `release.fencingToken`, `await release()`. One Redis node (`--backend redis`).
 *
 * What its source does (node_modules/simple-redis-mutex/dist/index.js, read for this client):
 * - tryLock: `SET lock-<name> <Math.random()> NX PX timeout`; when that says OK it then sends
 *   `INCR @simple-redis-mutex:fencing-tokens` and returns the count as `release.fencingToken`.
 *   The token is a second command after the grant, not part of it: a holder delayed between the
 *   SET and the INCR (a pause, a slow link) can draw its token AFTER a later holder drew its own,
 *   so token order is the order of the INCRs, not of the grants. In the common case the tokens
 *   grow with the grants; this client announces them as `monotonic` (the library calls them
 *   fencing tokens) and client-check and the runs test that claim.
 * - release: a Lua compare-and-delete (+ PUBLISH to wake waiters) whose result it ignores.
 * - lock(): tryLock again on each release message and every pollingInterval, until failAfter.
 *   When failAfter fires it stops waiting, but a tryLock already sent is not cancelled: its SET
 *   may still succeed, and the lock is then held by no one until its timeout. So we wait with
 *   tryLock in our own loop (each attempt answered before the next), where "not granted" is definite.
 * - No refresh unless the caller calls `release.refreshTimeout()`.
 */
import { createClient } from 'redis';
import { tryLock } from 'simple-redis-mutex';
import { Fail, Info, log, packageVersion, serve, sleep, withTimeout } from './fencecheck-protocol.mjs';

class SimpleRedisMutex {
  constructor(config) {
    this.config = config;
    this.redis = createClient({
      url: `redis://${config.lockEndpoints[0]}`,
      // Refused at once while disconnected: a command is never queued to apply after a partition heals.
      disableOfflineQueue: true,
      socket: { connectTimeout: config.callTimeoutMs, reconnectStrategy: (n) => Math.min(20 * n, 250) },
    });
    let last = '';
    this.redis.on('error', (e) => {
      if (e.message !== last) log(`redis: ${e.message}`);
      last = e.message;
    });
    this.release = null;
  }

  async connect() {
    await withTimeout(this.redis.connect(), 5000, () => new Error('connect timeout')).catch((e) => log(`redis not reachable yet: ${e.message}`));
  }

  async acquire(ttlMs) {
    const deadline = Date.now() + this.config.callTimeoutMs;
    for (;;) {
      let got;
      try {
        got = await withTimeout(
          tryLock(this.redis, this.config.lockName, { timeout: Math.round(ttlMs) }),
          this.config.callTimeoutMs,
          () => new Info('timeout', 'tryLock took over a call timeout'),
        );
      } catch (e) {
        if (e instanceof Info) throw e;
        // "The client is closed" / offline: node-redis refused the command before sending it.
        if (/offline|closed|ClientClosed/i.test(e.message)) throw new Fail('not-connected', e.message);
        throw new Info('connection-lost', e.message);
      }
      const [hasLock, release] = got;
      if (hasLock) {
        this.release = release;
        return { token: release.fencingToken, lease_ms: ttlMs };
      }
      // The SET NX answered "exists": definitely not ours; try again until the call timeout.
      if (Date.now() + 20 >= deadline) throw new Fail('held', 'the lock stayed held for the call timeout');
      await sleep(20);
    }
  }

  async release() {
    const release = this.release;
    this.release = null;
    try {
      await withTimeout(release(), this.config.callTimeoutMs, () => new Info('timeout', 'release took over a call timeout'));
    } catch (e) {
      if (e instanceof Info) throw e;
      throw new Info('connection-lost', e.message);
    }
  }

  close() {
    this.redis.destroy?.();
  }
}

await serve((c) => new SimpleRedisMutex(c), 'monotonic', {
  'simple-redis-mutex': await packageVersion('simple-redis-mutex'),
  redis: await packageVersion('redis'),
  pg: await packageVersion('pg'),
});
