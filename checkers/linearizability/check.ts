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
import { withDefaults } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import { CacheLimitError, MemoryBudget } from './config-cache.js';
import type { CheckOptions, LinearizabilityResult } from './result.js';
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
  const deadline = options.timeoutMs === undefined ? Infinity : started + options.timeoutMs;
  // Within a part, completed ops come first and pending ones last: the cache's compact bitsets rely on it.
  const parts = model
    .partition(ops)
    .filter((p) => p.length > 0)
    .map((p) => [...p.filter((o) => o.ret !== Infinity), ...p.filter((o) => o.ret === Infinity)]);
  const budget = new MemoryBudget(options.maxCacheBytes ?? DEFAULT_MAX_CACHE_BYTES);
  let searches: (PartitionSearch<S> | KeyedSearch<S>)[];
  try {
    // A search knows its ops by their index in the part; op.id stays the history-wide id the witness shows.
    // A state of independent parts (kv unpartitioned) gets the search that learns failures per part.
    const { parts: stateParts } = model;
    const memoStates = memoStatesFor(ops.length);
    searches = parts.map((p) => (stateParts ? new KeyedSearch(model, p, budget.child(), stateParts) : new PartitionSearch(model, p, budget.child(), memoStates)));
  } catch (err) {
    if (!(err instanceof CacheLimitError)) throw err;
    const stats = { operations: ops.length, partitions: parts.length, steps: 0, cacheEntries: 0, elapsedMs: performance.now() - started };
    return { valid: 'unknown', reason: `${err.message} before the search began (raise maxCacheBytes)`, stats };
  }
  const outcomes: (PartitionOutcome | undefined)[] = searches.map((s) => s.outcome);
  const stats = () => ({
    operations: ops.length,
    partitions: parts.length,
    steps: searches.reduce((sum, s) => sum + s.steps, 0),
    cacheEntries: searches.reduce((sum, s) => sum + s.cacheEntries, 0),
    elapsedMs: performance.now() - started,
  });

  for (let round = FIRST_BUDGET; outcomes.includes(undefined); round *= 2) {
    for (let p = 0; p < searches.length; p++) {
      if (outcomes[p] !== undefined) continue;
      const search = searches[p]!;
      const outcome = search.run(round, deadline);
      if (outcome === undefined) continue;
      outcomes[p] = outcome;
      // A decided part's cache is garbage now: give its memory to the others.
      search.releaseMemory();
      if (outcome.valid === false && outcome.deepest) {
        const original = parts[p]!;
        const d = outcome.deepest;
        return {
          valid: false,
          witness: {
            partition: p,
            partitionLabel: model.partitioned && original.length > 0 ? model.partitionLabel(original[0]!) : 'all',
            prefix: d.order.map((i) => original[i]!),
            state: d.state,
            op: original[d.blocker]!,
            reason: d.reason,
          },
          stats: stats(),
        };
      }
      if (outcome.valid === 'unknown' && performance.now() > deadline) {
        return {
          valid: 'unknown',
          reason: `deadline of ${options.timeoutMs} ms reached with ${outcomes.filter((o) => o === undefined || o.valid === 'unknown').length} of ${parts.length} partition${parts.length === 1 ? '' : 's'} undecided`,
          stats: stats(),
        };
      }
    }
  }
  const unknown = outcomes.findIndex((o) => o?.valid === 'unknown');
  if (unknown !== -1) {
    return { valid: 'unknown', reason: `partition ${unknown + 1}/${parts.length}: ${outcomes[unknown]!.reason ?? 'undecided'}`, stats: stats() };
  }
  return { valid: true, stats: stats() };
}

/** Re-exported for callers that only need the types with the function. */
export type { Operation };
