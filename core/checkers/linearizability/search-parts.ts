/**
 * searchParts: the parts of a history searched interleaved, in rounds of
 * doubling step budgets, under one deadline and one memory ceiling (check.ts,
 * and each thread's share of a history's parts: shares.ts).
 */
import type { FilledModel } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import { CacheLimitError, MemoryBudget } from './config-cache.js';
import { KeyedSearch } from './keyed-wgl.js';
import type { CheckOptions, Now } from './result.js';
import { provenPart, type ProvenPart } from './proven-order.js';
import { memoStatesFor } from './step-memo.js';
import { PartitionSearch, type PartitionOutcome } from './wgl.js';

/**
 * Default ceiling for the search's own tables (configuration caches and step
 * memos), so that one check, with its model states and the history, stays
 * under 1 GB of memory.
 */
export const DEFAULT_MAX_CACHE_BYTES = 448 * 2 ** 20;
const FIRST_BUDGET = 1 << 10;

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
 * not time, so which part that is does not depend on the machine. The
 * deadline is `started + timeoutMs` on `now` (result.ts: why a clock is passed in).
 */
export function searchParts<S>(
  model: FilledModel<S>,
  parts: Operation[][],
  options: Omit<CheckOptions, 'now'>,
  started: number,
  now: Now,
  control?: RoundControl,
): PartsRun {
  const deadline = options.timeoutMs === undefined ? Infinity : started + options.timeoutMs;
  const budget = new MemoryBudget(options.maxCacheBytes ?? DEFAULT_MAX_CACHE_BYTES);
  const searches: (PartitionSearch<S> | KeyedSearch<S> | ProvenPart)[] = [];
  try {
    // A search knows its ops by their index in the part; op.id stays the history-wide id the witness shows.
    // A state of independent parts (kv unpartitioned) gets the search that learns failures per part.
    const { parts: stateParts } = model;
    const memoStates = memoStatesFor(parts.reduce((n, p) => n + p.length, 0));
    for (const p of parts) {
      searches.push(stateParts ? new KeyedSearch(model, p, budget.child(), stateParts) : new PartitionSearch(model, p, budget.child(), memoStates));
      // Setting up is linear in the ops: 64 parts of a 200,000-op history took 230 ms, past a 50 ms deadline.
      if (now() > deadline) return { deadlineWith: parts.length - searches.filter((s) => s.outcome !== undefined).length, steps: 0, cacheEntries: 0 };
    }
  } catch (err) {
    if (!(err instanceof CacheLimitError)) throw err;
    return { tooBig: `${err.message} before the search began (raise maxCacheBytes)`, steps: 0, cacheEntries: 0 };
  }
  const outcomes: (PartitionOutcome | undefined)[] = searches.map((s) => s.outcome);
  // The model's guess at a part's order is tried at the part's first run, as its frame is made (wgl.ts): an invalid
  // history never runs most of its parts. A part the guess proves valid is not searched (proven-order.ts).
  const guessed = new Uint8Array(searches.length);
  const totals = () => ({ steps: searches.reduce((sum, s) => sum + s.steps, 0), cacheEntries: searches.reduce((sum, s) => sum + s.cacheEntries, 0) });

  for (let budgetSteps = FIRST_BUDGET, round = 0; outcomes.includes(undefined); budgetSteps *= 2, round++) {
    if (control?.stopBefore(round)) return totals();
    for (let p = 0; p < searches.length; p++) {
      if (outcomes[p] !== undefined) continue;
      if (guessed[p] === 0 && model.parts === undefined) {
        guessed[p] = 1;
        const proven = provenPart(model, parts[p]!);
        if (proven !== undefined) {
          searches[p]!.releaseMemory();
          searches[p] = proven;
          outcomes[p] = proven.outcome;
          continue;
        }
      }
      const search = searches[p]!;
      const outcome = search.run(budgetSteps, deadline, now);
      if (outcome === undefined) {
        // A search makes its frame at its first run (linear in its ops, like the setup above), and a round of
        // fewer than CLOCK_EVERY steps never looks at the clock: so look here, or many large parts pass the deadline.
        if (deadline !== Infinity && now() > deadline)
          return { deadlineWith: outcomes.filter((o) => o === undefined || o.valid === 'unknown').length, ...totals() };
        continue;
      }
      outcomes[p] = outcome;
      // A decided part's cache is garbage now: give its memory to the others.
      search.releaseMemory();
      if (outcome.valid === false && outcome.deepest) {
        control?.invalidIn(round);
        return { invalid: { round, part: p, deepest: outcome.deepest }, ...totals() };
      }
      if (outcome.valid === 'unknown' && now() > deadline) {
        return { deadlineWith: outcomes.filter((o) => o === undefined || o.valid === 'unknown').length, ...totals() };
      }
    }
  }
  const unknown = outcomes.findIndex((o) => o?.valid === 'unknown');
  return { ...(unknown !== -1 ? { unknown: { part: unknown, reason: outcomes[unknown]!.reason ?? 'undecided' } } : {}), ...totals() };
}
