/**
 * A memo of the model's step on (state id, op id) → next state id for the
 * first states interned, as one dense typed array (a lookup is one read).
 *
 * Why only the first states: a register or a mutex has a handful of states,
 * each stepped by every op many times, and the memo saves the model call and
 * the interning. The kv model makes a new state in almost every configuration,
 * each stepped by a few ops; measured on the c50 kv histories, a hash-table
 * memo for those states cost more (growth and probing) than recomputing the
 * step (about 2x slower), so states past the first few are not memoised.
 */
import type { MemoryBudget } from './config-cache.js';

/** Marks "not computed yet". */
export const UNKNOWN = -2;
/** States that get a memo row. */
const MEMO_STATES = 64;

export class StepMemo {
  private readonly dense: Int32Array;

  constructor(
    private readonly ops: number,
    budget: MemoryBudget,
  ) {
    this.dense = new Int32Array(MEMO_STATES * ops).fill(UNKNOWN);
    budget.take(this.dense.byteLength);
  }

  get(state: number, op: number): number {
    return state < MEMO_STATES ? this.dense[state * this.ops + op]! : UNKNOWN;
  }

  set(state: number, op: number, next: number): void {
    if (state < MEMO_STATES) this.dense[state * this.ops + op] = next;
  }
}
