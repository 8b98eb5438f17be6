/**
 * Interns model states as small integers and memoises the model's step
 * function on (state id, operation id) (step-memo.ts).
 *
 * Why: the search visits the same (state, op) pair many times; with states as
 * ints the cache key is (bitset, int) and each step is computed once (Knossos'
 * memo does the same for small state spaces).
 */
import type { FilledModel } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import type { MemoryBudget } from './config-cache.js';
import { doubled } from './open-addressing.js';
import { StepMemo, UNKNOWN } from './step-memo.js';

/** Returned by `step` for an illegal transition. */
export const ILLEGAL = -1;
/** The interner's own cost per state: its place in `states` and two table slots (at most half full). */
const STATE_OVERHEAD_BYTES = 32;

export class StateInterner<S> {
  readonly states: S[] = [];
  /**
   * hash → state id, open addressing over typed arrays (a JavaScript Map of
   * hundreds of thousands of states was a fifth of the kv search's time, most
   * of it in the garbage collector). Equal hashes probe on, so collisions need
   * no buckets.
   */
  private slots = new Int32Array(1 << 10).fill(-1);
  private slotHash = new Int32Array(1 << 10);
  private readonly memo: StepMemo;
  private readonly hash: (s: S) => number;
  private readonly equal: (a: S, b: S) => boolean;

  constructor(
    private readonly model: FilledModel<S>,
    private readonly ops: readonly Operation[],
    private readonly budget: MemoryBudget,
    memoStates?: number,
  ) {
    this.memo = new StepMemo(ops.length, budget, memoStates);
    this.hash = model.hash;
    this.equal = model.equal;
  }

  /** The id of `state`, interning it if new. */
  intern(state: S): number {
    const h = this.hash(state);
    const mask = this.slots.length - 1;
    let slot = (h ^ (h >>> 15)) & mask;
    for (let id = this.slots[slot]!; id !== -1; id = this.slots[slot]!) {
      if (this.slotHash[slot] === h && this.equal(this.states[id]!, state)) return id;
      slot = (slot + 1) & mask;
    }
    // Interned states live as long as the search: they count against its memory ceiling (plus the interner's own slot).
    this.budget.take(STATE_OVERHEAD_BYTES + this.model.sizeOf(state));
    const id = this.states.length;
    this.states.push(state);
    this.slots[slot] = id;
    this.slotHash[slot] = h;
    if (this.states.length * 2 > this.slots.length) this.grow();
    return id;
  }

  private grow(): void {
    ({ slots: this.slots, slotHash: this.slotHash } = doubled({ slots: this.slots, slotHash: this.slotHash }));
  }

  /** The id of the state after `op` from state `sid`, or ILLEGAL. */
  step(sid: number, op: number): number {
    const cached = this.memo.get(sid, op);
    if (cached !== UNKNOWN) return cached;
    const r = this.model.step(this.states[sid]!, this.ops[op]!);
    const next = r.ok ? this.intern(r.state) : ILLEGAL;
    this.memo.set(sid, op, next);
    return next;
  }

  /** The model's reason why `op` is illegal in state `sid` (for witnesses; not memoised). */
  reason(sid: number, op: number): string | undefined {
    const r = this.model.step(this.states[sid]!, this.ops[op]!);
    return r.ok ? undefined : r.reason();
  }
}

export const FNV_OFFSET = 0x811c9dc5 | 0;

/** FNV-1a over UTF-16 code units: fast, good enough to bucket states. */
export function stringHash(s: string): number {
  return fnvContinue(FNV_OFFSET, s);
}

/** FNV-1a continued from hash `h` over `s`: fnvContinue(stringHash(a), b) === stringHash(a + b). */
export function fnvContinue(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}
