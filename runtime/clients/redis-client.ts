/**
 * A lock on one Redis: `SET lockName value NX PX ttl`, released by a Lua
 * compare-and-delete, as the Redis documentation's single-instance pattern.
 *
 * Fencing token: `INCR lockName:fence` on the same instance right after a
 * successful SET. This is correct only for a single instance, and only while
 * it keeps its data: a restart without persistence resets the counter (and
 * forgets the lock), so tokens start again from 1 and the fence of the
 * resource rejects every later holder (or, with cas-unique, two holders may
 * share a mark). Known limits, shown by the redis-faults scenarios: key
 * expiry follows Redis's wall clock, and nothing tells a holder its key
 * expired (holdLost() never reports anything).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Acquired, LockClient, LockClientOptions } from './lock-client.js';
import type { LockBackend } from '../../core/vocabulary.js';
import { failed, indeterminate } from './op-error.js';
import { COMPARE_AND_DELETE, connectRedis, redisConnection, redisOpError } from './redis-connection.js';
import { monotonicNow, retryDelayMs, sleep } from './time.js';

export class RedisLockClient implements LockClient {
  readonly backend: LockBackend = 'redis';
  protected readonly redis: Redis;
  private hold: { value: string; token: number } | undefined;

  /** `connection`: how to reach the master (default: the one endpoint given); the Sentinel client passes its own. */
  constructor(
    protected readonly o: LockClientOptions,
    connection?: Redis,
  ) {
    const [endpoint] = o.endpoints;
    if (endpoint === undefined) throw new RangeError('redis needs one endpoint');
    this.redis = connection ?? redisConnection(endpoint, o.callTimeoutMs, o.log);
  }

  /**
   * After the key is set and the token taken, before the grant is answered:
   * nothing for a single Redis. Throws an OpError to refuse the grant (the
   * Sentinel client's WAIT does). `value` is the key's value, to delete it.
   */
  protected async confirmGrant(_value: string): Promise<void> {}

  async connect(): Promise<void> {
    await connectRedis(this.redis, 5000);
  }

  async acquire(ttlMs: number): Promise<Acquired> {
    const key = this.o.lockName;
    const value = randomBytes(16).toString('hex');
    const deadline = monotonicNow() + this.o.callTimeoutMs;
    for (;;) {
      let reply: string | null;
      try {
        reply = await this.redis.set(key, value, 'PX', ttlMs, 'NX');
      } catch (err) {
        const e = redisOpError(err);
        if (e.type === 'info') void this.deleteIfOurs(value); // best effort: the SET may have applied
        throw e;
      }
      if (reply === 'OK') break;
      const remaining = deadline - monotonicNow();
      // SET NX answered nil every time until the call timeout: the key existed (another holder), nothing was written.
      if (remaining <= 0) throw failed('held', `${key} is held by another client`);
      await sleep(Math.min(retryDelayMs(this.o.callTimeoutMs), remaining));
    }
    let token: number;
    try {
      token = await this.redis.incr(`${key}:fence`);
    } catch (err) {
      // We hold the lock but have no token to act under: a maybe-hold, cleaned up in the background.
      void this.deleteIfOurs(value);
      throw indeterminate('no-token', `INCR ${key}:fence: ${redisOpError(err).message}`, err);
    }
    await this.confirmGrant(value);
    this.hold = { value, token };
    return { token, lease_ms: ttlMs };
  }

  async release(): Promise<void> {
    const hold = this.hold;
    this.hold = undefined;
    // Nothing held: nothing is sent.
    if (!hold) throw failed('not-held', 'no lock is held');
    let deleted: unknown;
    try {
      deleted = await this.redis.eval(COMPARE_AND_DELETE, 1, this.o.lockName, hold.value);
    } catch (err) {
      throw redisOpError(err);
    }
    // The script compared and found another value or none, atomically: the lock was no longer ours.
    if (deleted !== 1) throw failed('not-held', 'the key no longer holds our value (expired or taken)');
  }

  holdLost(): undefined {
    return undefined;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  protected async deleteIfOurs(value: string): Promise<void> {
    await this.redis.eval(COMPARE_AND_DELETE, 1, this.o.lockName, value).catch(() => undefined);
  }
}
