/**
 * One thread's share of one history's parts (check-parts-threaded.ts): search
 * them as one thread searches all parts, and say what was found in the terms
 * one thread would use (the part's index among all parts, the round it was
 * decided in), so the threads' findings combine into one thread's verdict.
 */
import { searchParts, witnessOf, type RoundControl } from '../../checkers/linearizability/check.js';
import type { CheckOptions, LinearizabilityWitness } from '../../checkers/linearizability/result.js';
import type { FilledModel } from '../../checkers/model-defaults.js';
import type { Operation } from '../../checkers/operation.js';

/** What one share found (plain data: it crosses from a worker as a structured clone). */
export interface ShareOutcome {
  /** The first part found invalid in this share, in (round, part) order; `part` is its index among all parts. */
  invalid?: { round: number; part: number; witness: LinearizabilityWitness };
  deadlineWith?: number;
  unknown?: { part: number; reason: string };
  tooBig?: string;
  steps: number;
  cacheEntries: number;
}

/** No part found invalid yet (the initial value of the shared first invalid round). */
export const NO_INVALID_ROUND = 0x7fffffff;

/**
 * `parts` in search order, `indexes` their places among all parts (ascending, so the share's own order is one
 * thread's order); `firstInvalidRound`: one Int32 shared by all shares; `started`: this thread's clock at the
 * check's start (the deadline is the same instant on every thread).
 */
export function searchShare<S>(model: FilledModel<S>, parts: Operation[][], indexes: readonly number[], options: CheckOptions, started: number, firstInvalidRound: SharedArrayBuffer): ShareOutcome {
  const run = searchParts(model, parts, options, started, roundControl(firstInvalidRound));
  const { invalid, unknown } = run;
  return {
    steps: run.steps,
    cacheEntries: run.cacheEntries,
    ...(invalid ? { invalid: { round: invalid.round, part: indexes[invalid.part]!, witness: witnessOf(model, parts[invalid.part]!, indexes[invalid.part]!, invalid.deepest) } } : {}),
    ...(run.deadlineWith !== undefined ? { deadlineWith: run.deadlineWith } : {}),
    ...(unknown ? { unknown: { part: indexes[unknown.part]!, reason: unknown.reason } } : {}),
    ...(run.tooBig !== undefined ? { tooBig: run.tooBig } : {}),
  };
}

/** All shares' rounds in step: a part found invalid in round r stops every share after round r. */
function roundControl(buffer: SharedArrayBuffer): RoundControl {
  const first = new Int32Array(buffer);
  return {
    stopBefore: (round) => round > Atomics.load(first, 0),
    invalidIn(round) {
      for (let seen = Atomics.load(first, 0); round < seen; ) {
        const was = Atomics.compareExchange(first, 0, seen, round);
        if (was === seen) break;
        seen = was;
      }
    },
  };
}
