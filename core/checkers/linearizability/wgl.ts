/**
 * The linearizability search for one partition: Wing & Gong's algorithm with
 * Lowe's memoisation, as in Porcupine's checkSingle and Knossos' wgl.
 *
 * Events (calls and returns) sit in a doubly linked list in real-time order.
 * The search walks the list from the head: at a call it tries to linearize that
 * operation now (the model allows it and the resulting configuration is new),
 * which removes the op's call and return from the list and restarts at the
 * head; at a return it has run out of candidates for the op that must have taken
 * effect by then, so it backtracks. The history is linearizable when every
 * completed operation has been linearized. Pending operations have no return
 * event: they may be linearized whenever they are reachable, or never.
 *
 * Intervals are closed: at equal times calls sort before returns, so an op
 * returning at the instant another is invoked counts as concurrent with it.
 *
 * Beyond Porcupine: states are interned ints with a memoised step
 * (state-interner.ts); the cache is allocation-free (config-cache.ts); the
 * linearized set's hash is updated incrementally (Zobrist); and of several
 * identical pending operations only the earliest unlinearized one is tried
 * (swapping two identical ops with open-ended intervals never changes whether
 * an order exists). And a read-only operation (one that never changes the
 * state: a read, a failed cas) that is legal the moment it is reachable is
 * linearized there and then, with no alternative tried: any linearization from
 * this configuration stays one with the read moved to the front (the state is
 * the same, and nothing that must precede the read is left, or the read would
 * not be reachable). So if the configuration after the read fails, this one
 * fails too, and the search backtracks past both. Each new configuration is
 * first scanned for such a read (the read pass) before any other op is tried.
 */
import type { DeadEndTest } from '../model.js';
import type { FilledModel } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import { CacheLimitError, ConfigCache, type MemoryBudget } from './config-cache.js';
import { LinearizedSet } from './linearized-set.js';
import { ILLEGAL, StateInterner } from './state-interner.js';
import type { Now } from './result.js';

export interface PartitionOutcome {
  valid: boolean | 'unknown';
  reason?: string;
  steps: number;
  cacheEntries: number;
  /** For an invalid partition: the deepest configuration reached. */
  deepest?: { order: number[]; state: string; blocker: number; reason: string };
}

/**
 * Why loop() returned. A code, not the outcome object: code in the hot loop that has never run when V8 optimises
 * it (building a verdict, which happens once per search) deoptimises it when it first runs, and the next hard
 * history then starts in the interpreter again.
 */
export type Stop = 0 | 1 | 2 | 3;
export const PAUSED = 0;
export const VALID = 1;
export const INVALID = 2;
export const DEADLINE = 3;

/** How many search steps between two looks at the clock (a look costs ~50 ns; this keeps the deadline within ms). */
export const CLOCK_EVERY = 1 << 12;

/**
 * One partition's search, resumable: `run(budget)` takes at most `budget`
 * steps and returns undefined if still undecided. check() interleaves the
 * partitions with growing budgets so that an easy violation in one part is
 * found without first finishing a hard part (Porcupine gets the same effect
 * by searching parts in parallel goroutines and stopping at the first false).
 */
export class PartitionSearch<S> {
  private readonly n: number;
  private readonly states: StateInterner<S>;
  private readonly cache: ConfigCache;
  // The frame (the event list, the stack, the linearized set, the lookahead), made at the first run(): a history
  // found invalid in one part never searches most of the others, and their frames were most of its setup.
  private next!: Int32Array;
  private prev!: Int32Array;
  private sameBefore!: Int32Array;
  private linearized!: LinearizedSet;
  private stackOp!: Int32Array;
  private stackState!: Int32Array;
  private pending!: Uint8Array;
  private readOnly!: Uint8Array;
  private framed = false;
  private state: number;
  private depth = 0;
  private remaining = 0;
  private entry = -1;
  private bestDepth = -1;
  /**
   * The deepest configuration's order, kept up to date lazily: stackOp[0, clean) is known to equal
   * bestOrder[0, clean), so a new deepest configuration copies only the part of the stack that changed since
   * the last one. (Copying the whole stack on every new depth made a long valid history quadratic.)
   */
  private bestOrder!: Int32Array;
  private clean = 0;
  private bestState: number;
  private blocker = -1;
  /** Whether the model has read-only ops, and whether the scan is in its read-first pass (see the class doc). */
  private hasReads = false;
  private readPass = false;
  /** The model's lookahead for this part (Model.deadEnds), if it has one. */
  private deadEnd: DeadEndTest<S> | undefined;
  steps = 0;
  outcome: PartitionOutcome | undefined;

  constructor(
    private readonly model: FilledModel<S>,
    private readonly ops: readonly Operation[],
    private readonly budget: MemoryBudget,
    /** States with a step memo row (memoStatesFor the whole check's op count). */
    memoStates?: number,
  ) {
    const n = (this.n = ops.length);
    // What takes from the memory budget is made here, so a history too big for the ceiling is refused before
    // the search begins, whichever part would be searched first.
    this.states = new StateInterner(model, ops, budget, memoStates);
    this.state = this.bestState = this.states.intern(model.init());
    this.cache = new ConfigCache(budget, n);
    for (let i = 0; i < n; i++) if (ops[i]!.ret !== Infinity) this.remaining++;
    if (this.remaining === 0) this.outcome = { valid: true, steps: 0, cacheEntries: 0 };
  }

  /** Makes the frame (see its fields), once, before the first step. */
  private frame(): void {
    const { n, model, ops } = this;
    this.framed = true;
    ({
      next: this.next,
      prev: this.prev,
      sameBefore: this.sameBefore,
      pending: this.pending,
      readOnly: this.readOnly,
      entry: this.entry,
      deadEnd: this.deadEnd,
    } = searchFrame(model, ops));
    this.stackOp = new Int32Array(n);
    this.stackState = new Int32Array(n);
    this.bestOrder = new Int32Array(n);
    this.hasReads = this.readOnly.includes(1);
    this.readPass = this.hasReads;
    this.linearized = new LinearizedSet(n, this.remaining);
  }

  get cacheEntries(): number {
    return this.cache.size;
  }

  /** Give back the memory this search took (it is decided; its tables are garbage). */
  releaseMemory(): void {
    this.budget.releaseAll();
  }

  /** Search for up to `budget` steps or until `deadline` (on `now`); the outcome once decided. */
  run(budget: number, deadline: number, now: Now): PartitionOutcome | undefined {
    if (this.outcome) return this.outcome;
    if (!this.framed) this.frame();
    try {
      const stopped = this.loop(budget, deadline, now);
      this.outcome = stopped === PAUSED ? undefined : this.outcomeOf(stopped);
    } catch (err) {
      if (!(err instanceof CacheLimitError)) throw err;
      this.outcome = {
        valid: 'unknown',
        reason: `${err.message} (raise the ceiling: --max-search-mb, or partition the history)`,
        steps: this.steps,
        cacheEntries: this.cache.size,
      };
    }
    return this.outcome;
  }

  /** The outcome once loop() stopped for good (built here, not in the loop: see Stop). */
  private outcomeOf(stopped: Stop): PartitionOutcome {
    const { steps, cache } = this;
    if (stopped === VALID) return { valid: true, steps, cacheEntries: cache.size };
    if (stopped === DEADLINE) return { valid: 'unknown', reason: 'deadline reached', steps, cacheEntries: cache.size };
    return invalidOutcome(
      this.model,
      this.ops,
      this.states,
      this.bestOrder.subarray(0, Math.max(0, this.bestDepth)),
      this.bestState,
      this.blocker,
      steps,
      cache.size,
    );
  }

  // The hot loop keeps its state in locals (faster than fields in V8) and writes it back when it pauses.
  private loop(budget: number, deadline: number, now: Now): Stop {
    const { next, prev, states, sameBefore, linearized, cache, stackOp, stackState, pending, readOnly } = this;
    const HEAD = 2 * this.n;
    let { state, depth, remaining, entry, steps, readPass } = this;
    const { hasReads, deadEnd } = this;
    const stop = steps + budget;
    let stopped: Stop = PAUSED;
    outer: while (remaining > 0) {
      let failed = false;
      if ((++steps & (CLOCK_EVERY - 1)) === 0) {
        if (now() > deadline) {
          stopped = DEADLINE;
          break;
        }
        if (steps >= stop) break;
      }
      if ((entry & 1) === 0) {
        // A call event: try to linearize this op now.
        const op = entry >> 1;
        if (readPass && readOnly[op] === 0) {
          entry = next[entry]!;
          continue;
        }
        const twin = sameBefore[op]!;
        // A read-only op outside the read pass is illegal here without asking the model: the read pass of this
        // configuration tried every read in the window, in this same state, and a legal one would have been
        // forced (see the class doc). It still counts as a step, so budgets and witnesses do not move.
        const skip = (twin !== -1 && !linearized.has(twin)) || (!readPass && readOnly[op] === 1);
        const after = skip ? ILLEGAL : states.step(state, op);
        if (after !== ILLEGAL) {
          linearized.add(op);
          // A state the model proves cannot lead to a linearization is as good as illegal (read-only ops change no state).
          const ruledOut = deadEnd !== undefined && readOnly[op] === 0 ? deadEnd(states.states[after]!, op, linearized.words, linearized.lo) : -1;
          if (ruledOut !== -1 && depth >= this.bestDepth) this.recordDeadEnd(depth, op, after, ruledOut);
          if (ruledOut === -1 && cache.insert(linearized, after)) {
            stackOp[depth] = op;
            stackState[depth] = state;
            depth++;
            state = after;
            unlink(entry, next, prev);
            if (pending[op] === 0) {
              unlink(entry + 1, next, prev);
              remaining--;
            }
            if (depth > this.bestDepth) {
              this.bestDepth = depth;
              for (let d = this.clean; d < depth; d++) this.bestOrder[d] = stackOp[d]!;
              this.clean = depth;
              this.bestState = state;
              this.blocker = -1;
            }
            // After a read in the read pass the state is unchanged, so the reads before it are still illegal:
            // the pass goes on from here. Any other op changed the state: every read is worth trying again.
            // (From its live predecessor: the read's own links may lead to its unlinked return event.)
            if (readPass) entry = next[prev[entry]!]!;
            else {
              entry = next[HEAD]!;
              readPass = hasReads;
            }
            continue;
          }
          linearized.delete(op);
          // A legal read whose successor configuration already failed: this configuration fails too (see readOnly).
          if (readOnly[op] === 1) failed = true;
        }
        if (!failed) {
          entry = next[entry]!;
          continue;
        }
      }
      if (!failed) {
        if (readPass) {
          // End of the reachable window and no legal read in it: now try every op.
          readPass = false;
          entry = next[HEAD]!;
          continue;
        }
        // A return event: the op must have taken effect by now and nothing worked.
        if (depth === this.bestDepth && this.blocker === -1) this.blocker = entry >> 1;
      }
      // Backtrack: this configuration fails. Pop the op that led here; if that op was a read-only op linearized
      // the moment it was legal, its parent configuration fails with it, so keep popping.
      let op: number;
      do {
        if (depth === 0) {
          stopped = INVALID;
          break outer;
        }
        depth--;
        if (depth < this.clean) this.clean = depth;
        op = stackOp[depth]!;
        state = stackState[depth]!;
        linearized.delete(op);
        // Relink in reverse order of unlinking (dancing links).
        if (pending[op] === 0) {
          relink(2 * op + 1, next, prev);
          remaining++;
        }
        relink(2 * op, next, prev);
      } while (readOnly[op] === 1);
      // This configuration's read pass was done when it was entered (or a legal read would have been forced).
      readPass = false;
      entry = next[2 * op]!;
    }
    Object.assign(this, { state, depth, remaining, entry, steps, readPass });
    return stopped === PAUSED && remaining === 0 ? VALID : stopped;
  }

  /**
   * A step the lookahead ruled out, one deeper than any configuration reached: it becomes the deepest
   * configuration for the witness (the stack plus `op`, in `state`), blocked by the op the lookahead named,
   * which is illegal there. So the witness shows the state that rules the op out, as it would without the
   * lookahead, where the search reached that state and then failed on the op.
   */
  private recordDeadEnd(depth: number, op: number, state: number, ruledOut: number): void {
    const stackOp = this.stackOp;
    for (let d = this.clean; d < depth; d++) this.bestOrder[d] = stackOp[d]!;
    this.bestOrder[depth] = op;
    // bestOrder[depth] is not stackOp[depth]: only [0, depth) is known equal.
    this.clean = depth;
    this.bestDepth = depth + 1;
    this.bestState = state;
    this.blocker = ruledOut;
  }
}

export function invalidOutcome<S>(
  model: FilledModel<S>,
  ops: readonly Operation[],
  states: Pick<StateInterner<S>, 'states' | 'reason'>,
  order: Int32Array,
  bestState: number,
  blocker: number,
  steps: number,
  cacheEntries: number,
): PartitionOutcome {
  const stateValue = states.states[bestState]!;
  const describe = model.describeState;
  const blocked = blocker === -1 ? firstUnlinearizedCompleted(ops, order) : blocker;
  const illegal = states.reason(bestState, blocked);
  const reason = illegal ?? 'the op is legal here, but every order that linearizes it leads to a configuration already shown to fail';
  return {
    valid: false,
    steps,
    cacheEntries,
    deepest: { order: Array.from(order), state: describe(stateValue), blocker: blocked, reason },
  };
}

function firstUnlinearizedCompleted(ops: readonly Operation[], order: Int32Array): number {
  const done = new Set(order);
  let best = -1;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.ret === Infinity || done.has(i)) continue;
    if (best === -1 || op.ret < ops[best]!.ret) best = i;
  }
  return best === -1 ? 0 : best;
}

/** What a search over a part's ops starts from (this file's and keyed-wgl.ts's). */
export interface SearchFrame<S> {
  /** The events in real-time order, a doubly linked list from its head (index 2n). */
  next: Int32Array;
  prev: Int32Array;
  /** identicalPendingPredecessors. */
  sameBefore: Int32Array;
  pending: Uint8Array;
  readOnly: Uint8Array;
  /** Completed ops, all of which a linearization must hold. */
  remaining: number;
  /** The first event. */
  entry: number;
  deadEnd: DeadEndTest<S> | undefined;
}

export function searchFrame<S>(model: FilledModel<S>, ops: readonly Operation[]): SearchFrame<S> {
  const n = ops.length;
  const next = new Int32Array(2 * n + 1).fill(-1);
  const prev = new Int32Array(2 * n + 1).fill(-1);
  linkEvents(ops, next, prev, 2 * n);
  const pending = new Uint8Array(n);
  const readOnly = new Uint8Array(n);
  let remaining = 0;
  // Ops are known by their index in `ops` (not op.id, which stays the history-wide id shown in witnesses).
  for (let i = 0; i < n; i++) {
    if (model.isReadOnly(ops[i]!)) readOnly[i] = 1;
    if (ops[i]!.ret === Infinity) pending[i] = 1;
    else remaining++;
  }
  return { next, prev, sameBefore: identicalPendingPredecessors(ops), pending, readOnly, remaining, entry: next[2 * n]!, deadEnd: model.deadEnds?.(ops) };
}

/** Call event of op i is 2i, its return 2i+1; pending ops have no return event. */
function linkEvents(ops: readonly Operation[], next: Int32Array, prev: Int32Array, head: number): void {
  const events: number[] = [];
  for (let i = 0; i < ops.length; i++) {
    events.push(2 * i);
    if (ops[i]!.ret !== Infinity) events.push(2 * i + 1);
  }
  const timeOf = (e: number): number => ((e & 1) === 0 ? ops[e >> 1]!.call : ops[e >> 1]!.ret);
  // Calls before returns at equal times: closed intervals.
  events.sort((a, b) => timeOf(a) - timeOf(b) || (a & 1) - (b & 1) || a - b);
  let last = head;
  for (const e of events) {
    next[last] = e;
    prev[e] = last;
    last = e;
  }
  next[last] = -1;
}

export function unlink(e: number, next: Int32Array, prev: Int32Array): void {
  const p = prev[e]!;
  const q = next[e]!;
  next[p] = q;
  if (q !== -1) prev[q] = p;
}

export function relink(e: number, next: Int32Array, prev: Int32Array): void {
  const p = prev[e]!;
  const q = next[e]!;
  next[p] = e;
  if (q !== -1) prev[q] = e;
}

/**
 * For each pending op, the previous pending op with the same f, input and call
 * order (or -1). Only the earliest unlinearized member of such a class is ever
 * tried; by induction linearized members form a prefix, so checking the
 * immediate predecessor is enough.
 */
function identicalPendingPredecessors(ops: readonly Operation[]): Int32Array {
  const twin = new Int32Array(ops.length).fill(-1);
  const lastOfClass = new Map<string, number>();
  const byCall = ops.map((_, i) => i).sort((a, b) => ops[a]!.call - ops[b]!.call || a - b);
  for (const id of byCall) {
    const op = ops[id]!;
    if (op.ret !== Infinity) continue;
    const key = `${op.f}\u0000${JSON.stringify(op.input)}`;
    const before = lastOfClass.get(key);
    if (before !== undefined) twin[id] = before;
    lastOfClass.set(key, id);
  }
  return twin;
}
