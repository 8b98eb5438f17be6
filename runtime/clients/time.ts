/**
 * Time inside a lock client: deadlines on the monotonic clock, a timeout
 * around any promise, and jittered retry delays, each on the client's Clock
 * (../clock.ts: the real one in a client process, a simulated process's in
 * test/sim).
 *
 * Why monotonic: every client process runs with the clock library preloaded,
 * so the nemesis can shift its wall clock (Date.now). A lease or a deadline
 * computed on a jumping wall clock is precisely the bug some lock clients
 * have; the clients' own bookkeeping must not have it. The real clock's
 * nowNs reads CLOCK_MONOTONIC, which the clock library leaves alone.
 */
import type { Clock } from '../../core/clock.js';
import { realClock } from '../hosts/real-clock.js';

/** Monotonic ms on `clock`. */
export const monotonicNow = (clock: Clock = realClock): number => Number(clock.nowNs()) / 1e6;

export const sleep = (ms: number, clock: Clock = realClock): Promise<void> => new Promise((resolve) => void clock.setTimer(Math.max(0, ms), resolve));

/** A call got no answer in time: it may still take effect (the request may be on the wire). */
export class CallTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what}: no answer within ${ms} ms`);
    this.name = 'CallTimeoutError';
  }
}

/** `p`, or a CallTimeoutError after `ms`. A late settlement of `p` is ignored (its rejection is handled). */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string, clock: Clock = realClock): Promise<T> {
  let cancel: () => void = () => undefined;
  const timeout = new Promise<never>((_, reject) => {
    cancel = clock.setTimer(Math.max(0, ms), () => reject(new CallTimeoutError(what, ms)));
  });
  return Promise.race([p, timeout]).finally(() => cancel());
}

/**
 * The pause before retrying a lock that another client holds: a tenth of the
 * call timeout (5 to 50 ms), times a random factor in [0.5, 1.5) so that
 * waiting clients do not retry in lockstep.
 */
export function retryDelayMs(callTimeoutMs: number, random: () => number = Math.random): number {
  const base = Math.max(5, Math.min(50, callTimeoutMs / 10));
  return base * (0.5 + random());
}
