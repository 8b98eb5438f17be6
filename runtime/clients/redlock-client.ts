/**
 * Redlock over five independent Redis masters, our own implementation of the
 * documented algorithm (redlock-algorithm.ts) on ioredis connections.
 *
 * Token: the random value (a string). Redlock has no monotonic token, so the
 * fence modes do not apply; cas-unique marks the resource with it. The
 * answer carries validity_ms, the validity the client computed when it
 * decided. Known limit: nothing tells a holder that its validity ran out
 * (holdLost() never reports anything): a client paused after the decision
 * goes on writing, which is what the pause scenarios show.
 */
import type { Acquired, LockClient, LockClientOptions } from './lock-client.js';
import { failed, indeterminate } from './op-error.js';
import { redlockAcquire, releaseVerdict, unlockAll, type LockVote, type RedlockClock, type RedlockNode, type UnlockVote } from './redlock-algorithm.js';
import { COMPARE_AND_DELETE, connectRedis, redisConnection } from './redis-connection.js';
import { CallTimeoutError, monotonicNow, sleep, withTimeout } from './time.js';
import { realRuntime, type ClientRuntime } from './client-runtime.js';
import type { RedisPort } from './redis-port.js';
import type { Clock } from '../../core/clock.js';

/** The algorithm's clock on a runtime's: monotonic ms, its timers, its randomness. */
function redlockClockOf(rt: ClientRuntime): RedlockClock {
  return { now: () => monotonicNow(rt.clock), sleep: (ms) => sleep(ms, rt.clock), random: rt.random };
}

/** A call within the per-node timeout; a node that errs or stays silent is simply not a vote. */
async function within<T>(p: Promise<T>, timeoutMs: number, clock?: Clock): Promise<T | 'timeout' | 'error'> {
  try {
    return await withTimeout(p, timeoutMs, 'redlock node', clock);
  } catch (err) {
    return err instanceof CallTimeoutError || (err instanceof Error && err.message === 'Command timed out') ? 'timeout' : 'error';
  }
}

/** One Redis master as a Redlock node; the per-node timeout is ours (a race), ioredis's is the call timeout. */
export function redisNode(redis: RedisPort, clock?: Clock): RedlockNode {
  return {
    async lock(key, value, ttlMs, timeoutMs): Promise<LockVote> {
      const r = await within(redis.set(key, value, 'PX', ttlMs, 'NX'), timeoutMs, clock);
      return r === 'OK' ? 'locked' : r === null ? 'held' : r;
    },
    async unlock(key, value, timeoutMs): Promise<UnlockVote> {
      const r = await within(redis.eval(COMPARE_AND_DELETE, 1, key, value), timeoutMs, clock);
      return r === 1 ? 'released' : r === 0 ? 'not-ours' : r === 'timeout' ? 'timeout' : 'error';
    },
  };
}

export class RedlockClient implements LockClient {
  readonly backend = 'redlock';
  private readonly conns: RedisPort[];
  private readonly nodes: RedlockNode[];
  private readonly rt: ClientRuntime;
  private readonly clock: RedlockClock;
  private hold: { value: string } | undefined;

  /** `clock`: the algorithm's (tests); default the runtime's. */
  constructor(
    private readonly o: LockClientOptions,
    clock?: RedlockClock,
  ) {
    if (o.endpoints.length < 3) throw new RangeError(`redlock needs at least three independent nodes, got ${o.endpoints.length}`);
    this.rt = o.runtime ?? realRuntime;
    this.clock = clock ?? redlockClockOf(this.rt);
    this.conns = o.endpoints.map((e) => (this.rt.redis ?? redisConnection)(e, o.callTimeoutMs, o.log));
    this.nodes = this.conns.map((c) => redisNode(c, this.rt.clock));
  }

  async connect(): Promise<void> {
    const ok = await Promise.all(this.conns.map((c) => connectRedis(c, 5000, this.rt.clock)));
    const down = ok.filter((x) => !x).length;
    if (down > 0) this.o.log(`redlock: ${down} of ${ok.length} nodes not reachable at start (reconnecting in the background)`);
  }

  async acquire(ttlMs: number): Promise<Acquired> {
    const value = this.rt.randomHex(16);
    const result = await redlockAcquire(this.nodes, this.o.lockName, value, ttlMs, this.clock, this.clock.now() + this.o.callTimeoutMs);
    const last = result.attempts.at(-1);
    this.o.log(
      `redlock acquire: ${result.attempts.length} attempt(s), last votes ${last?.votes.join(',')}, elapsed ${last?.elapsedMs.toFixed(1)} ms, validity ${last?.validityMs.toFixed(1)} ms`,
    );
    // The client decided it does not hold the lock and unlocked every node: it never acts under this value.
    if (!result.acquired) throw failed(result.reason, `no valid majority after ${result.attempts.length} attempt(s)`);
    this.hold = { value };
    return { token: value, lease_ms: ttlMs, validity_ms: Math.floor(result.validityMs) };
  }

  async release(): Promise<void> {
    const hold = this.hold;
    this.hold = undefined;
    // Nothing held: nothing is sent.
    if (!hold) throw failed('not-held', 'no lock is held');
    const votes = await unlockAll(this.nodes, this.o.lockName, hold.value, this.o.callTimeoutMs);
    const verdict = releaseVerdict(votes);
    // A majority of nodes no longer had our value, each checked atomically: the lock was no longer ours.
    if (verdict === 'not-held') throw failed('not-held', `unlock votes ${votes.join(',')}`);
    // Neither majority answered: whether we still held it is unknown.
    if (verdict === 'unknown') throw indeterminate('no-quorum', `unlock votes ${votes.join(',')}`);
  }

  holdLost(): undefined {
    return undefined;
  }

  async close(): Promise<void> {
    for (const c of this.conns) c.disconnect();
  }
}
