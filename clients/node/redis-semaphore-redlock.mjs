#!/usr/bin/env node
/**
 * redis-semaphore's RedlockMutex (npm redis-semaphore 5.8.0, over ioredis 5) as a fencecheck client,
 * used as its README shows: `new RedlockMutex([redis1, redis2, …], key, options)`, `acquire()`,
 * `release()`. Five independent Redis masters (`--backend redlock`).
 *
 * What its source does (node_modules/redis-semaphore/lib/redlockMutex/*.js, read for this client):
 * - acquire: each attempt sends `SET key identifier PX lockTimeout NX` to every node and waits for
 *   all answers, counting an error (a timeout included) as "no"; with a quorum (n/2+1) of OK it
 *   returns at once. It does NOT compute a validity (no elapsed-time or drift check, unlike the
 *   Redlock description): a grant that took longer than lockTimeout is still returned as held.
 *   Without a quorum it deletes its value everywhere (errors ignored), waits retryInterval, retries
 *   until acquireTimeout, then throws TimeoutError.
 * - It refreshes by itself every 0.8 × lockTimeout (quorum of PEXPIRE) and calls onLockLost when a
 *   refresh loses the quorum; the default onLockLost throws (the process would die), so we log.
 * - release: compare-and-delete on every node, result ignored.
 * Token: `mutex.identifier`, a random UUID: unique, no order. No fencing token.
 *
 * TimeoutError is answered `fail held`: each attempt saw fewer than a quorum of OK and deleted its
 * value from every node. The library hides the errors it counted as "no", so a SET that timed out
 * and still landed on a quorum (and whose clean-up also failed) would be a grant nobody knows of;
 * this client cannot see that case, and says so here rather than answering info for every wait.
 */
import { RedlockMutex } from 'redis-semaphore';
import { packageVersion, serve } from './fencecheck-protocol.mjs';
import { RedisSemaphoreLock } from './redis-semaphore-lock.mjs';

await serve((c) => new RedisSemaphoreLock(c, (nodes, key, options) => new RedlockMutex(nodes, key, options)), 'unique', {
  'redis-semaphore': await packageVersion('redis-semaphore'),
  ioredis: await packageVersion('ioredis'),
  pg: await packageVersion('pg'),
});
