/**
 * A part decided without a search: a model's guess at its linearization
 * (Model.orderHint), checked here against the definition. A total order of
 * the part's ops is a linearization when it holds every completed op once
 * (a pending op at most once: it may have taken effect, or never), puts no
 * op after one that was invoked after it returned (real time), and the
 * model allows every step of it from the initial state. Such an order is a
 * proof that the part is linearizable, however it was found; so a wrong or
 * partial guess costs only its own time (the search then runs as before),
 * never a verdict. An invalid part has no such order, so it is always
 * searched, and its witness is the search's.
 */
import type { FilledModel } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import type { PartitionOutcome } from './wgl.js';

/** Whether `order` (indexes into `ops`) is a linearization of `ops` under `model`. */
export function isLinearization<S>(model: FilledModel<S>, ops: readonly Operation[], order: readonly number[]): boolean {
  const placed = new Uint8Array(ops.length);
  // Intervals are closed, as in the search: an op must come before another only if it returned before the other was invoked.
  let latestCall = -Infinity;
  let state = model.init();
  for (const i of order) {
    if (!Number.isInteger(i) || i < 0 || i >= ops.length || placed[i] === 1) return false;
    placed[i] = 1;
    const op = ops[i]!;
    if (op.ret < latestCall) return false;
    if (op.call > latestCall) latestCall = op.call;
    const next = model.step(state, op);
    if (!next.ok) return false;
    state = next.state;
  }
  for (let i = 0; i < ops.length; i++) if (placed[i] === 0 && ops[i]!.ret !== Infinity) return false;
  return true;
}

/** A part the model's guess decided: it stands in the search's place (searchParts), already valid. */
export class ProvenPart {
  readonly steps: number;
  readonly cacheEntries = 0;
  readonly outcome: PartitionOutcome;

  /** `order`'s length as the steps: the model steps the proof took. */
  constructor(order: readonly number[]) {
    this.steps = order.length;
    this.outcome = { valid: true, steps: order.length, cacheEntries: 0 };
  }

  run(): PartitionOutcome {
    return this.outcome;
  }

  /** Nothing to give back: a proven part took no tables. */
  releaseMemory(): void {}
}

/** The part proven valid by the model's guess, or undefined (no guess, or one that is not a linearization). */
export function provenPart<S>(model: FilledModel<S>, ops: readonly Operation[]): ProvenPart | undefined {
  const order = model.orderHint?.(ops);
  return order !== undefined && isLinearization(model, ops, order) ? new ProvenPart(order) : undefined;
}
