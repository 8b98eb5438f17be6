/**
 * The interpreter's time: a reading in ns and one-shot timers. Production
 * runs on the process's monotonic clock and Node's timers; the simulation
 * (test/sim) runs the same runner code on a virtual clock whose timers fire
 * in (time, sequence) order, so a seed replays to the same history.
 *
 * Why every runner part takes a Clock rather than calling setTimeout: a part
 * that reads real time cannot be simulated, and a simulation that replaces
 * the part tests a copy, not the product.
 */

export interface Clock {
  /** ns on a monotonic time line (an arbitrary origin). */
  nowNs(): bigint;
  /** Call `fn` once after `ms` (at least 0); returns the cancel function. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** The process's CLOCK_MONOTONIC and Node's timers. */
export const realClock: Clock = {
  nowNs: () => process.hrtime.bigint(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
};

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
