/**
 * Redlock through the popular npm `redlock` library (5.0.0-beta.2), used as
 * its README shows: `new Redlock(clients, settings)`, `acquire([name], ttl)`,
 * `lock.release()`. It is here to show what a widely used client does.
 *
 * What its source (node_modules/redlock/dist/esm/index.js) does, read for
 * this client:
 * - It does NOT verify validity after acquiring. `acquire` takes
 *   `start = Date.now()` before the first attempt, and once a quorum of SETs
 *   succeeded returns `new Lock(..., expiration = start + ttl - drift)`
 *   without checking `expiration > Date.now()`. A client paused between the
 *   quorum and the return (or slowed by retries, since `start` precedes the
 *   first attempt) gets a lock whose validity is already gone. Only
 *   `extend()` compares the expiration with the clock. Our own Redlock
 *   (redlock-client.ts) refuses such a lock; this one hands it out, which is
 *   what the "pause during acquisition" scenario shows. The answer's
 *   validity_ms is `lock.expiration - Date.now()` when acquire returned, so
 *   the history shows it (it can be negative).
 * - Its times are wall-clock (Date.now), so a clock jump of the client moves
 *   the expiration it believes in.
 * - It has no per-node timeout: it counts votes as they arrive and decides at
 *   a quorum either way; a silent node is bounded only by ioredis's command
 *   timeout (here the call timeout).
 * - On failure it unlocks what it set (one pass, no retry).
 * Token: the lock's value (a random string).
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type * as RedlockModule from '../../node_modules/redlock/dist/index.js';
import type { Acquired, LockClient, LockClientOptions } from './lock-client.js';
import { failed, indeterminate } from './op-error.js';
import { quorumOf } from './redlock-algorithm.js';
import { connectRedis, redisConnection, redisOpError } from './redis-connection.js';
import { CallTimeoutError, withTimeout } from './time.js';

// Why require() and a path to the types: redlock 5 beta's `exports` map has no `types` condition, so
// TypeScript (NodeNext) cannot type `import 'redlock'`. Its CJS build and its own index.d.ts are the same API.
const { default: Redlock, ExecutionError, ResourceLockedError } = createRequire(import.meta.url)('redlock') as typeof RedlockModule;
type Redlock = RedlockModule.default;
type Lock = RedlockModule.Lock;
type ExecutionError = RedlockModule.ExecutionError;
type ExecutionStats = RedlockModule.ExecutionStats;

/** The library's retry settings for a call timeout: retries spread over about one call timeout. */
export function redlockNpmSettings(callTimeoutMs: number): { driftFactor: number; retryCount: number; retryDelay: number; retryJitter: number } {
  const retryDelay = Math.round(Math.max(10, Math.min(200, callTimeoutMs / 5)));
  return { driftFactor: 0.01, retryCount: Math.max(0, Math.floor(callTimeoutMs / retryDelay)), retryDelay, retryJitter: Math.round(retryDelay / 2) };
}

/** How many of the last attempt's votes against were "already locked" (the stats settle once every vote is in). */
async function lockedVotes(err: ExecutionError, waitMs: number): Promise<number> {
  const last = err.attempts.at(-1);
  if (!last) return 0;
  const stats: ExecutionStats | undefined = await withTimeout(last, waitMs, 'redlock stats').catch(() => undefined);
  return stats ? [...stats.votesAgainst.values()].filter((e) => e instanceof ResourceLockedError).length : 0;
}

export class RedlockNpmClient implements LockClient {
  readonly backend = 'redlock-npm';
  private readonly conns: Redis[];
  private readonly redlock: Redlock;
  private hold: Lock | undefined;

  constructor(private readonly o: LockClientOptions) {
    if (o.endpoints.length < 3) throw new RangeError(`redlock-npm needs at least three independent nodes, got ${o.endpoints.length}`);
    this.conns = o.endpoints.map((e) => redisConnection(e, o.callTimeoutMs, o.log));
    this.redlock = new Redlock(this.conns, redlockNpmSettings(o.callTimeoutMs));
  }

  async connect(): Promise<void> {
    const ok = await Promise.all(this.conns.map((c) => connectRedis(c, 5000)));
    const down = ok.filter((x) => !x).length;
    if (down > 0) this.o.log(`redlock-npm: ${down} of ${ok.length} nodes not reachable at start (reconnecting in the background)`);
  }

  async acquire(ttlMs: number): Promise<Acquired> {
    const pending = this.redlock.acquire([this.o.lockName], Math.round(ttlMs));
    let lock: Lock;
    try {
      // The library's own retries take about one call timeout; past two, we stop waiting.
      lock = await withTimeout(pending, 2 * this.o.callTimeoutMs + 100, 'redlock-npm acquire');
    } catch (err) {
      if (err instanceof CallTimeoutError) {
        // It may still succeed: then release it in the background, since we answered.
        void pending.then((l) => l.release()).catch(() => undefined);
        throw indeterminate('timeout', err.message, err);
      }
      // The library gave up without a quorum and unlocked what it had set: the lock was not granted.
      if (err instanceof ExecutionError) throw failed((await lockedVotes(err, this.o.callTimeoutMs)) > 0 ? 'held' : 'no-quorum', err.message, err);
      throw redisOpError(err);
    }
    this.hold = lock;
    return { token: lock.value, lease_ms: ttlMs, validity_ms: lock.expiration - Date.now() };
  }

  async release(): Promise<void> {
    const hold = this.hold;
    this.hold = undefined;
    // Nothing held: nothing is sent.
    if (!hold) throw failed('not-held', 'no lock is held');
    try {
      await withTimeout(this.redlock.release(hold, { retryCount: 0 }), 2 * this.o.callTimeoutMs, 'redlock-npm release');
    } catch (err) {
      if (err instanceof ExecutionError) {
        const locked = await lockedVotes(err, this.o.callTimeoutMs);
        // A majority of nodes answered that the key no longer held our value: the lock was no longer ours.
        if (locked >= quorumOf(this.conns.length)) throw failed('not-held', err.message, err);
        throw indeterminate('no-quorum', err.message, err);
      }
      throw redisOpError(err);
    }
  }

  holdLost(): undefined {
    return undefined;
  }

  async close(): Promise<void> {
    for (const c of this.conns) c.disconnect();
  }
}
