#!/usr/bin/env node
/**
 * @sesamecare-oss/redlock 1.4.0 (the maintained fork of npm `redlock` 5, over ioredis 5) as a
 * fencecheck client, used as its README shows: `new Redlock([clients], settings)`,
 * `redlock.on('error', …)` ignoring ResourceLockedError, `await redlock.acquire([name], ttl)`,
 * `await lock.release()`. Five independent Redis masters (`--backend redlock`).
 *
 * What its source does (node_modules/@sesamecare-oss/redlock/src/index.ts, read for this client):
 * - acquire: attempts of one Lua script per node (EXISTS, else SET PX), decided at the first
 *   quorum of votes either way; retries retryCount times. It then returns a Lock with
 *   `expiration = start + duration - drift`, where start is the LAST attempt's start, and does
 *   NOT check that this expiration is still in the future: a client paused between the quorum
 *   and the return gets a lock that has already expired (as npm redlock 5 beta; see
 *   docs/lock-clients.md). We report `validity_ms = expiration - Date.now()` so the history shows it.
 * - Its times are wall-clock (Date.now()).
 * - A node's error is emitted on the Redlock instance: with no 'error' listener that throw
 *   becomes an unhandled rejection that ends the process (the README's listener is required).
 * - After a failed acquire it releases what it set, one pass, errors ignored.
 * Token: `lock.value`, 16 random bytes in hex: unique, no order. No fencing token.
 */
import { ExecutionError, Redlock, ResourceLockedError } from '@sesamecare-oss/redlock';
import { Fail, Info, log, packageVersion, serve, withTimeout } from './fencecheck-protocol.mjs';
import { connectAll, ioredisConnection, ioredisError } from './ioredis-connection.mjs';

/** The library's retries spread over about one call timeout (as fencecheck's built-in redlock-npm client). */
function settingsFor(callTimeoutMs) {
  const retryDelay = Math.round(Math.max(10, Math.min(200, callTimeoutMs / 5)));
  return { driftFactor: 0.01, retryCount: Math.max(0, Math.floor(callTimeoutMs / retryDelay)), retryDelay, retryJitter: Math.round(retryDelay / 2) };
}

/** How many of the last attempt's votes against said "already locked" (its stats settle once every vote is in). */
async function lockedVotes(err, waitMs) {
  const last = err.attempts.at(-1);
  if (!last) return 0;
  const stats = await withTimeout(last, waitMs, () => new Error('stats')).catch(() => undefined);
  return stats ? [...stats.votesAgainst.values()].filter((e) => e instanceof ResourceLockedError).length : 0;
}

class SesamecareRedlock {
  constructor(config) {
    this.config = config;
    this.nodes = config.lockEndpoints.map((e) => ioredisConnection(e, config.callTimeoutMs));
    this.redlock = new Redlock(this.nodes, settingsFor(config.callTimeoutMs));
    this.redlock.on('error', (e) => {
      if (!(e instanceof ResourceLockedError)) log(`redlock: ${e.message}`);
    });
    this.lock = null;
  }

  connect() {
    return connectAll(this.nodes, 5000);
  }

  async acquire(ttlMs) {
    const pending = this.redlock.acquire([this.config.lockName], Math.round(ttlMs));
    let lock;
    try {
      lock = await withTimeout(pending, 2 * this.config.callTimeoutMs + 100, () => new Info('timeout', 'acquire took over two call timeouts'));
    } catch (e) {
      if (e instanceof Info) {
        // It may still succeed after we answered: release it then.
        pending.then((l) => l.release()).catch(() => undefined);
        throw e;
      }
      // No quorum in the retry window, and what it set was released: not granted.
      if (e instanceof ExecutionError) throw new Fail((await lockedVotes(e, this.config.callTimeoutMs)) > 0 ? 'held' : 'no-quorum', e.message);
      throw ioredisError(e);
    }
    this.lock = lock;
    return { token: lock.value, lease_ms: ttlMs, validity_ms: lock.expiration - Date.now() };
  }

  async release() {
    const lock = this.lock;
    this.lock = null;
    try {
      await withTimeout(lock.release(), 2 * this.config.callTimeoutMs, () => new Info('timeout', 'release took over two call timeouts'));
    } catch (e) {
      if (e instanceof Info) throw e;
      if (e instanceof ExecutionError) {
        // A quorum answered that the key no longer held our value: it was no longer ours.
        if ((await lockedVotes(e, this.config.callTimeoutMs)) >= Math.floor(this.nodes.length / 2) + 1) throw new Fail('not-held', e.message);
        throw new Info('no-quorum', e.message);
      }
      throw ioredisError(e);
    }
  }

  close() {
    for (const n of this.nodes) n.disconnect();
  }
}

await serve((c) => new SesamecareRedlock(c), 'unique', {
  '@sesamecare-oss/redlock': await packageVersion('@sesamecare-oss/redlock'),
  ioredis: await packageVersion('ioredis'),
  pg: await packageVersion('pg'),
});
