/**
 * The verdict of a linearizability check, as data (Jepsen's second channel):
 * `valid` is true, false or 'unknown'; false carries a witness, unknown a reason.
 */
import type { Operation } from '../operation.js';

export type Validity = true | false | 'unknown';

export interface LinearizabilityWitness {
  /** Which partition (P-compositionality) failed, and its label. */
  partition: number;
  partitionLabel: string;
  /** The longest linearizable prefix found: operations in linearization order. */
  prefix: Operation[];
  /** The model state after that prefix, described for a person. */
  state: string;
  /** The operation that cannot be linearised after the prefix (its return was reached). */
  op: Operation;
  /** Why: the model's reason the step is illegal, or why no order works. */
  reason: string;
}

export interface LinearizabilityResult {
  valid: Validity;
  /** Set when valid is 'unknown' (deadline, error). */
  reason?: string;
  witness?: LinearizabilityWitness;
  stats: {
    operations: number;
    partitions: number;
    /** Search steps taken, summed over partitions. */
    steps: number;
    /** Distinct (linearized set, state) configurations cached. */
    cacheEntries: number;
    elapsedMs: number;
  };
}

export interface CheckOptions {
  /** Give up with valid: 'unknown' after this many milliseconds (of `now`). */
  timeoutMs?: number;
  /** Ceiling for the configuration cache; past it the verdict is 'unknown'. */
  maxCacheBytes?: number;
  /**
   * The clock the deadline and the elapsed time are read on, in ms; check() defaults it to performance.now.
   * Why not read the machine's time here: a deadline on it makes the verdict depend on how fast the machine
   * was, and a simulation on virtual time (test/sim), or a test, must get the same verdict for the same history
   * on every run. Read as rarely as ever: at the start, after each part is set up, when a part is given up on,
   * and once every CLOCK_EVERY search steps (wgl.ts).
   */
  now?: Now;
}

/** A monotonic clock in ms (performance.now, or a simulation's). */
export type Now = () => number;

/** The machine's clock, for the callers that supply one (bound: performance.now needs its `this`). */
export const performanceNow: Now = () => performance.now();
