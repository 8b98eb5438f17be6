/**
 * Interns model states as small integers and memoises the model's step
 * function on (state id, operation id) (step-memo.ts).
 *
 * Why: the search visits the same (state, op) pair many times; with states as
 * ints the cache key is (bitset, int) and each step is computed once (Knossos'
 * memo does the same for small state spaces).
 */
import type { Model } from '../model.js';
import type { Operation } from '../operation.js';
import type { MemoryBudget } from './config-cache.js';
import { StepMemo, UNKNOWN } from './step-memo.js';

/** Returned by `step` for an illegal transition. */
export const ILLEGAL = -1;
const DEFAULT_STATE_BYTES = 64;
/** The interner's own cost per state: its slot in `states` and in the hash buckets. */
const STATE_OVERHEAD_BYTES = 48;

export class StateInterner<S> {
  readonly states: S[] = [];
  private readonly byHash = new Map<number, number | number[]>();
  private readonly memo: StepMemo;
  private readonly hash: (s: S) => number;
  private readonly equal: (a: S, b: S) => boolean;

  constructor(
    private readonly model: Model<S>,
    private readonly ops: readonly Operation[],
    private readonly budget: MemoryBudget,
  ) {
    this.memo = new StepMemo(ops.length, budget);
    this.hash = model.hash ? (s) => model.hash!(s) | 0 : (s) => stringHash(JSON.stringify(s));
    this.equal = model.equal ? (a, b) => model.equal!(a, b) : (a, b) => JSON.stringify(a) === JSON.stringify(b);
  }

  /** The id of `state`, interning it if new. */
  intern(state: S): number {
    const h = this.hash(state);
    const found = this.byHash.get(h);
    if (found !== undefined) {
      if (typeof found === 'number') {
        if (this.equal(this.states[found]!, state)) return found;
      } else {
        for (const id of found) if (this.equal(this.states[id]!, state)) return id;
      }
    }
    // Interned states live as long as the search: they count against its memory ceiling (plus the interner's own slot).
    this.budget.take(STATE_OVERHEAD_BYTES + (this.model.sizeOf ? this.model.sizeOf(state) : DEFAULT_STATE_BYTES));
    const id = this.states.length;
    this.states.push(state);
    if (found === undefined) this.byHash.set(h, id);
    else if (typeof found === 'number') this.byHash.set(h, [found, id]);
    else found.push(id);
    return id;
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
