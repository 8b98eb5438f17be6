/**
 * The interpreter's time (../clock.ts: monotonic ns, wall ms, one-shot
 * timers) and the two ways the runner waits on it. Production runs on the
 * real clock; the simulation (test/sim) on a virtual one. No runner part
 * calls setTimeout itself.
 */
import type { Clock } from '../../core/clock.js';

export { type Clock } from '../../core/clock.js';
export { realClock } from '../hosts/real-clock.js';

export function sleepOn(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => void clock.setTimer(ms, resolve));
}

/** `p`, or `onTimeout()` after `ms`; the timer is always cleared, so nothing keeps the process alive. */
export function raceTimer<T, U>(clock: Clock, p: Promise<T>, ms: number, onTimeout: () => U): Promise<T | U> {
  let cancel: () => void = () => undefined;
  const timeout = new Promise<U>((resolve) => {
    cancel = clock.setTimer(ms, () => resolve(onTimeout()));
  });
  return Promise.race([p, timeout]).finally(() => cancel());
}
