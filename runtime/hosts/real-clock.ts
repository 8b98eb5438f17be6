/** The production Clock (core/clock.ts): the process's own time and timers. */
import type { Clock } from '../../core/clock.js';

/** The process's CLOCK_MONOTONIC, its wall clock and Node's timers. */
export const realClock: Clock = {
  nowNs: () => process.hrtime.bigint(),
  wallMs: () => Date.now(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
};
