/**
 * What a search of parts found, as data, and how such findings read as a
 * verdict. One thread's check is one share of all parts (check.ts); a history
 * whose parts are spread over threads is one share per thread
 * (src/check/check-parts-threaded.ts). Findings name parts by their index
 * among all parts and the round they were decided in, so the threads'
 * findings combine into the verdict and witness one thread gives.
 */
import type { FilledModel } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import type { CheckOptions, LinearizabilityResult, LinearizabilityWitness, Now } from './result.js';
import { searchParts, type RoundControl } from './search-parts.js';
import type { PartitionOutcome } from './wgl.js';

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
 * thread's order); `started`: `now` at the check's start (the deadline is the same instant on every thread);
 * `now`: the clock the deadline is read on (the caller's: options.now is not read here, as a function does not
 * cross to a worker); `firstInvalidRound`: one Int32 shared by all shares, when there are several.
 */
export function searchShare<S>(
  model: FilledModel<S>,
  parts: Operation[][],
  indexes: readonly number[],
  options: Omit<CheckOptions, 'now'>,
  started: number,
  now: Now,
  firstInvalidRound?: SharedArrayBuffer,
): ShareOutcome {
  const run = searchParts(model, parts, options, started, now, firstInvalidRound && roundControl(firstInvalidRound));
  const { invalid, unknown } = run;
  return {
    steps: run.steps,
    cacheEntries: run.cacheEntries,
    ...(invalid
      ? {
          invalid: {
            round: invalid.round,
            part: indexes[invalid.part]!,
            witness: witnessOf(model, parts[invalid.part]!, indexes[invalid.part]!, invalid.deepest),
          },
        }
      : {}),
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
      for (let seen = Atomics.load(first, 0); round < seen;) {
        const was = Atomics.compareExchange(first, 0, seen, round);
        if (was === seen) break;
        seen = was;
      }
    },
  };
}

/**
 * The shares' findings as one thread's verdict: an invalid part first (the
 * earliest in (round, part) order; a proof, whatever else happened), then a
 * memory ceiling passed before a search began, then a deadline, then a part
 * given up on (the first by index).
 */
export function combine(
  shares: readonly ShareOutcome[],
  operations: number,
  partitions: number,
  timeoutMs: number | undefined,
  elapsedMs: number,
): LinearizabilityResult {
  const stats = {
    operations,
    partitions,
    steps: shares.reduce((n, s) => n + s.steps, 0),
    cacheEntries: shares.reduce((n, s) => n + s.cacheEntries, 0),
    elapsedMs,
  };
  const invalid = shares.flatMap((s) => (s.invalid ? [s.invalid] : [])).sort((a, b) => a.round - b.round || a.part - b.part)[0];
  if (invalid) return { valid: false, witness: invalid.witness, stats };
  const tooBig = shares.find((s) => s.tooBig !== undefined);
  if (tooBig) return { valid: 'unknown', reason: tooBig.tooBig!, stats };
  const late = shares.filter((s) => s.deadlineWith !== undefined);
  // A share that finished before the deadline left none of its parts undecided.
  if (late.length > 0)
    return {
      valid: 'unknown',
      reason: deadlineReason(
        timeoutMs,
        late.reduce((n, s) => n + s.deadlineWith!, 0),
        partitions,
      ),
      stats,
    };
  const unknown = shares.flatMap((s) => (s.unknown ? [s.unknown] : [])).sort((a, b) => a.part - b.part)[0];
  if (unknown) return { valid: 'unknown', reason: unknownReason(unknown.part, partitions, unknown.reason), stats };
  return { valid: true, stats };
}

/** The witness of part `part` (its index among all parts), from the deepest configuration its search reached. */
function witnessOf<S>(model: FilledModel<S>, original: Operation[], part: number, d: NonNullable<PartitionOutcome['deepest']>): LinearizabilityWitness {
  return {
    partition: part,
    partitionLabel: model.partitioned && original.length > 0 ? model.partitionLabel(original[0]!) : 'all',
    prefix: d.order.map((i) => original[i]!),
    state: d.state,
    op: original[d.blocker]!,
    reason: d.reason,
  };
}

function deadlineReason(timeoutMs: number | undefined, undecided: number, partitions: number): string {
  return `deadline of ${timeoutMs} ms reached with ${undecided} of ${partitions} partition${partitions === 1 ? '' : 's'} undecided`;
}

function unknownReason(part: number, partitions: number, reason: string): string {
  return `partition ${part + 1}/${partitions}: ${reason}`;
}
