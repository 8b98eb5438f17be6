/**
 * Time for every part of a run, runner and lock client alike: a monotonic
 * reading in ns, the wall clock in ms, and one-shot timers. Production runs
 * on the process's CLOCK_MONOTONIC, Date.now and Node's timers (realClock,
 * runtime/hosts/real-clock.ts: the process's own time is I/O, so not here); the
 * simulation (test/sim) passes a virtual clock whose timers fire in (time,
 * sequence) order and whose wall clock a clock fault shifts, so a seed
 * replays to the same history.
 *
 * Why the wall clock is here though the runner and the clients never decide
 * on it: the servers do (Redis expires keys on its wall clock), and a
 * simulated server needs the same clock its real counterpart reads.
 *
 * Why a part takes a Clock rather than calling setTimeout: a part that reads
 * real time cannot be simulated, and a simulation that replaces the part
 * tests a copy, not the product. (A leaf module: runner and clients both
 * import it, neither imports the other for it.)
 */

export interface Clock {
  /** ns on a monotonic time line (an arbitrary origin). */
  nowNs(): bigint;
  /** The wall clock, ms since the epoch (what a clock fault shifts). */
  wallMs(): number;
  /** Call `fn` once after `ms` (at least 0); returns the cancel function. */
  setTimer(ms: number, fn: () => void): () => void;
}
