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
import type { History } from '../../history/op.js';
import type { Model } from '../model.js';
import { withDefaults } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import { performanceNow, type CheckOptions, type LinearizabilityResult, type Now } from './result.js';
import { combine, searchShare } from './shares.js';
import { completionCheckFor } from '../models/value-shapes.js';
import { toOperations, type OperationsOptions } from './to-operations.js';

export function check<S>(model: Model<S>, history: History, options: CheckOptions = {}): LinearizabilityResult {
  const started = (options.now ?? performanceNow)();
  return checkOperations(model, toOperations(history, pairingOptions(model)), options, started);
}

/** How `model` wants a history paired into operations (for toOperations or an OperationPairer fed as a file is read). */
export function pairingOptions<S>(model: Model<S>): OperationsOptions {
  const m = withDefaults(model);
  const checkCompletion = completionCheckFor(m.name);
  return { onFail: m.onFail, isInert: m.isInert, ...(checkCompletion ? { checkCompletion } : {}) };
}

/**
 * check() on operations already paired (`started`: when the deadline started, on `options.now`, which is
 * performance.now unless given): the parts searched as one share, whose findings read as the verdict as
 * several threads' do (shares.ts).
 */
export function checkOperations<S>(unfilled: Model<S>, ops: Operation[], options: CheckOptions = {}, started?: number): LinearizabilityResult {
  const now = options.now ?? performanceNow;
  const from = started ?? now();
  const model = withDefaults(unfilled);
  const parts = searchOrder(model.partition(ops));
  const blind = nothingObserved(ops, parts.length, from, now);
  if (blind !== null) return blind;
  const found = searchShare(
    model,
    parts,
    parts.map((_, i) => i),
    options,
    from,
    now,
  );
  return combine([found], ops.length, parts.length, options.timeoutMs, now() - from);
}

/**
 * Unknown when no operation completed (every one pending, failed or inert):
 * such a history is linearizable whatever the system did, since every
 * pending operation may be left out, so "valid" would claim what nothing
 * showed. Null when something was observed.
 */
export function nothingObserved(ops: readonly Operation[], partitions: number, started: number, now: Now): LinearizabilityResult | null {
  if (ops.some((o) => o.ret !== Infinity)) return null;
  const what =
    ops.length === 0
      ? 'no operation is left to check (every one failed, or was a read with no result)'
      : `${ops.length === 1 ? 'its one operation is' : `all ${ops.length} operations are`} pending (invoked, never completed)`;
  return {
    valid: 'unknown',
    reason: `nothing was observed: ${what}; any system would pass, so there is no verdict`,
    stats: { operations: ops.length, partitions, steps: 0, cacheEntries: 0, elapsedMs: now() - started },
  };
}

/** Parts as the search takes them: empty ones gone; within a part, completed ops first and pending ones last (the cache's compact bitsets rely on it). */
export function searchOrder(parts: Operation[][]): Operation[][] {
  return parts.filter((p) => p.length > 0).map((p) => [...p.filter((o) => o.ret !== Infinity), ...p.filter((o) => o.ret === Infinity)]);
}

/** Re-exported for callers that only need the types with the function. */
export type { Operation };
