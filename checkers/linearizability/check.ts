/**
 * `check(model, history, options)`: the one entry point of the
 * linearizability checker. Pure: no I/O, only the history and the model.
 *
 * Pairs the history into operations, splits them with the model's partition
 * (P-compositionality: the whole is linearizable iff every part is), and
 * searches the parts interleaved, each round with twice the step budget of the
 * last, under one deadline and one memory ceiling. The first part found
 * invalid decides (false > unknown > true). Budgets are counted in steps, not
 * time, so the verdict and its witness are the same on every machine. The
 * witness is what the search already recorded (its deepest configuration), so
 * it never costs more than the search and obeys the same deadline.
 */
import type { History } from '../../src/history/op.js';
import type { Model } from '../model.js';
import { withDefaults, type FilledModel } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import { CacheLimitError, MemoryBudget } from './config-cache.js';
import type { CheckOptions, LinearizabilityResult, LinearizabilityWitness } from './result.js';
import { toOperations, type OperationsOptions } from './to-operations.js';
import { KeyedSearch } from './keyed-wgl.js';
import { memoStatesFor } from './step-memo.js';
import { PartitionSearch, type PartitionOutcome } from './wgl.js';

/**
 * Default ceiling for the search's own tables (configuration caches and step
 * memos), so that one check, with its model states and the history, stays
 * under 1 GB of memory.
 */
export const DEFAULT_MAX_CACHE_BYTES = 448 * 2 ** 20;
const FIRST_BUDGET = 1 << 10;

export function check<S>(model: Model<S>, history: History, options: CheckOptions = {}): LinearizabilityResult {
  const started = performance.now();
  return checkOperations(model, toOperations(history, pairingOptions(model)), options, started);
}

/** How `model` wants a history paired into operations (for toOperations or an OperationPairer fed as a file is read). */
export function pairingOptions<S>(model: Model<S>): OperationsOptions {
  const m = withDefaults(model);
  return { onFail: m.onFail, isInert: m.isInert };
}

/** check() on operations already paired (`started`: when the caller's clock for the deadline started). */
export function checkOperations<S>(unfilled: Model<S>, ops: Operation[], options: CheckOptions = {}, started = performance.now()): LinearizabilityResult {
  const model = withDefaults(unfilled);
  const parts = searchOrder(model.partition(ops));
  const run = searchParts(model, parts, options, started);
  const stats = { operations: ops.length, partitions: parts.length, steps: run.steps, cacheEntries: run.cacheEntries, elapsedMs: performance.now() - started };
  if (run.tooBig !== undefined) return { valid: 'unknown', reason: run.tooBig, stats };
  if (run.invalid) return { valid: false, witness: witnessOf(model, parts[run.invalid.part]!, run.invalid.part, run.invalid.deepest), stats };
  if (run.deadlineWith !== undefined) return { valid: 'unknown', reason: deadlineReason(options.timeoutMs, run.deadlineWith, parts.length), stats };
  if (run.unknown) return { valid: 'unknown', reason: unknownReason(run.unknown.part, parts.length, run.unknown.reason), stats };
  return { valid: true, stats };
}

/** Parts as the search takes them: empty ones gone; within a part, completed ops first and pending ones last (the cache's compact bitsets rely on it). */
export function searchOrder(parts: Operation[][]): Operation[][] {
  return parts.filter((p) => p.length > 0).map((p) => [...p.filter((o) => o.ret !== Infinity), ...p.filter((o) => o.ret === Infinity)]);
}

/**
 * How several threads that search one history's parts apart stay in step
 * (src/check/check-parts-threaded.ts): a part found invalid in round r ends
 * every thread's search after round r, since only parts decided by then can
 * come first in (round, part) order, the order one thread would find them in.
 */
export interface RoundControl {
  /** Whether to stop before round `round` (0-based). */
  stopBefore(round: number): boolean;
  /** A part was found invalid in round `round`. */
  invalidIn(round: number): void;
}

/** What searchParts found, with part indexes into its `parts`. */
export interface PartsRun {
  /** The first part found invalid, in (round, part) order. */
  invalid?: { round: number; part: number; deepest: NonNullable<PartitionOutcome['deepest']> };
  /** Set when the deadline stopped the search: how many parts were undecided. */
  deadlineWith?: number;
  /** The first part whose search gave up (a memory ceiling), when no part is invalid. */
  unknown?: { part: number; reason: string };
  /** The tables passed their ceiling before the search began: the reason. */
  tooBig?: string;
  steps: number;
  cacheEntries: number;
}

/**
 * The parts' searches, interleaved: each round gives every undecided part
 * twice the step budget of the last, under one deadline and one memory
 * ceiling. The first part found invalid ends the search. Budgets are steps,
 * not time, so which part that is does not depend on the machine.
 */
export function searchParts<S>(model: FilledModel<S>, parts: Operation[][], options: CheckOptions, started: number, control?: RoundControl): PartsRun {
  const deadline = options.timeoutMs === undefined ? Infinity : started + options.timeoutMs;
  const budget = new MemoryBudget(options.maxCacheBytes ?? DEFAULT_MAX_CACHE_BYTES);
  const searches: (PartitionSearch<S> | KeyedSearch<S>)[] = [];
  try {
    // A search knows its ops by their index in the part; op.id stays the history-wide id the witness shows.
    // A state of independent parts (kv unpartitioned) gets the search that learns failures per part.
    const { parts: stateParts } = model;
    const memoStates = memoStatesFor(parts.reduce((n, p) => n + p.length, 0));
    for (const p of parts) {
      searches.push(stateParts ? new KeyedSearch(model, p, budget.child(), stateParts) : new PartitionSearch(model, p, budget.child(), memoStates));
      // Setting up is linear in the ops: 64 parts of a 200,000-op history took 230 ms, past a 50 ms deadline.
      if (performance.now() > deadline) return { deadlineWith: parts.length - searches.filter((s) => s.outcome !== undefined).length, steps: 0, cacheEntries: 0 };
    }
  } catch (err) {
    if (!(err instanceof CacheLimitError)) throw err;
    return { tooBig: `${err.message} before the search began (raise maxCacheBytes)`, steps: 0, cacheEntries: 0 };
  }
  const outcomes: (PartitionOutcome | undefined)[] = searches.map((s) => s.outcome);
  const totals = () => ({ steps: searches.reduce((sum, s) => sum + s.steps, 0), cacheEntries: searches.reduce((sum, s) => sum + s.cacheEntries, 0) });

  for (let budgetSteps = FIRST_BUDGET, round = 0; outcomes.includes(undefined); budgetSteps *= 2, round++) {
    if (control?.stopBefore(round)) return totals();
    for (let p = 0; p < searches.length; p++) {
      if (outcomes[p] !== undefined) continue;
      const search = searches[p]!;
      const outcome = search.run(budgetSteps, deadline);
      if (outcome === undefined) continue;
      outcomes[p] = outcome;
      // A decided part's cache is garbage now: give its memory to the others.
      search.releaseMemory();
      if (outcome.valid === false && outcome.deepest) {
        control?.invalidIn(round);
        return { invalid: { round, part: p, deepest: outcome.deepest }, ...totals() };
      }
      if (outcome.valid === 'unknown' && performance.now() > deadline) {
        return { deadlineWith: outcomes.filter((o) => o === undefined || o.valid === 'unknown').length, ...totals() };
      }
    }
  }
  const unknown = outcomes.findIndex((o) => o?.valid === 'unknown');
  return { ...(unknown !== -1 ? { unknown: { part: unknown, reason: outcomes[unknown]!.reason ?? 'undecided' } } : {}), ...totals() };
}

/** The witness of part `part` (its index among all parts), from the deepest configuration its search reached. */
export function witnessOf<S>(model: FilledModel<S>, original: Operation[], part: number, d: NonNullable<PartitionOutcome['deepest']>): LinearizabilityWitness {
  return {
    partition: part,
    partitionLabel: model.partitioned && original.length > 0 ? model.partitionLabel(original[0]!) : 'all',
    prefix: d.order.map((i) => original[i]!),
    state: d.state,
    op: original[d.blocker]!,
    reason: d.reason,
  };
}

export function deadlineReason(timeoutMs: number | undefined, undecided: number, partitions: number): string {
  return `deadline of ${timeoutMs} ms reached with ${undecided} of ${partitions} partition${partitions === 1 ? '' : 's'} undecided`;
}

export function unknownReason(part: number, partitions: number, reason: string): string {
  return `partition ${part + 1}/${partitions}: ${reason}`;
}

/** Re-exported for callers that only need the types with the function. */
export type { Operation };
