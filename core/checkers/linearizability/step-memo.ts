/**
 * A memo of the model's step on (state id, op id) → next state id for the
 * first states interned, as a row of ints per state (a lookup is two reads).
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
/** States that get a memo row, at most. */
export const MEMO_STATES = 64;
/**
 * All rows of one check together stay under this (rows of n ints for a part
 * of n ops): a dense 64-row memo of a 1,000,000-op history was 256 MB, a third
 * of the check's memory, for the handful of states a register has.
 */
const MEMO_BYTES = 64 * 2 ** 20;

/** How many states get a memo row when the check's parts hold `totalOps` operations: 64, fewer for long histories (at least 8). */
export function memoStatesFor(totalOps: number): number {
  return Math.max(8, Math.min(MEMO_STATES, Math.floor(MEMO_BYTES / (4 * Math.max(1, totalOps)))));
}

export class StepMemo {
  /** A row per state id below `states`, made the first time that state is stepped (a register reaches a few). */
  private readonly rows: (Int32Array | undefined)[];

  constructor(
    private readonly ops: number,
    private readonly budget: MemoryBudget,
    private readonly states = MEMO_STATES,
  ) {
    this.rows = new Array<Int32Array | undefined>(states).fill(undefined);
  }

  get(state: number, op: number): number {
    if (state >= this.states) return UNKNOWN;
    const row = this.rows[state];
    return row === undefined ? UNKNOWN : row[op]!;
  }

  set(state: number, op: number, next: number): void {
    if (state >= this.states) return;
    let row = this.rows[state];
    if (row === undefined) {
      this.budget.take(this.ops * 4);
      this.rows[state] = row = new Int32Array(this.ops).fill(UNKNOWN);
    }
    row[op] = next;
  }
}
