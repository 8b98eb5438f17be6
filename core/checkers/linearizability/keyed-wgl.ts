/**
 * The linearizability search for a model whose state has independent parts
 * (Model.parts: kv's keys when the history is not partitioned): Wing & Gong's
 * search as in wgl.ts, with failures learned per part and conflict-directed
 * backjumping in place of a cache of whole configurations.
 *
 * Why: without partitioning, a configuration is every key's progress at once,
 * so the configurations the plain search must remember are the product of the
 * keys' (the c50 kv histories ran out of 448 MiB after 8 million steps, and
 * Porcupine out of 8.6 GB). Yet a configuration fails only because one key
 * cannot go on.
 *
 * The argument (locality, Herlihy & Wing, applied to what is left): from a
 * configuration C (ops linearized L, state S), the remaining history is
 * linearizable iff, for every part k, the remaining ops of k are from S's
 * part k (each part's residual problem R_k depends only on L_k, the ops of k
 * in L, and S_k). So C fails iff some R_k fails, and a failed R_k is a
 * "nogood" (k, L_k, S_k) that fails every configuration with that
 * projection, whatever the other parts hold. Each failure is attributed:
 * - At C the scan reached the first return event, of op y, with nothing
 *   linearizable: every candidate of y's part k was tried and failed in k
 *   (below). The candidates of k are exactly R_k's possible first ops (y
 *   returns first, so nothing else of k is forced before them), so R_k(C)
 *   fails: C fails in k.
 * - A child C·x (x of part j) that fails in a part k ≠ j: C has the same
 *   projection on k, so C fails in k too, at once: no other candidate of C
 *   is tried (the backjump).
 * - A child that fails in j = part(x) (illegal there, ruled out by the
 *   model's lookahead, a nogood of j, or searched and failed in j): C goes
 *   on with its next candidate. A pending op skipped for its identical
 *   earlier twin counts as failing in its part (the twin stands for it).
 * - A read-only op linearized the moment it is legal (wgl.ts): its parent
 *   fails in whatever part the child failed in (the read can be moved first
 *   in any linearization of R_k too).
 * Every failure is attributed, so no whole configuration is ever stored: a
 * configuration seen before and failed has, on its one part that failed, a
 * projection the nogoods hold, and it can only be reached again through a
 * step of that part (every configuration on the current path is free of
 * nogoods, since a failure propagates up to the step that last changed its
 * part), where the new child is checked.
 *
 * Budgets, the deadline, the memory ceiling and the witness (the deepest
 * configuration reached) work as in wgl.ts.
 */
import type { DeadEndTest, StateParts } from '../model.js';
import type { FilledModel } from '../model-defaults.js';
import type { Operation } from '../operation.js';
import { CacheLimitError, type MemoryBudget } from './config-cache.js';
import { LinearizedSet } from './linearized-set.js';
import { doubled } from './open-addressing.js';
import { CLOCK_EVERY, DEADLINE, INVALID, invalidOutcome, PAUSED, relink, searchFrame, unlink, VALID, type PartitionOutcome, type Stop } from './wgl.js';
import type { Now } from './result.js';

/** Bytes a nogood costs beyond its op list: its columns, its hash slot, the part's state it keeps alive. */
const NOGOOD_OVERHEAD_BYTES = 64;

export class KeyedSearch<S> {
  private readonly n: number;
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly sameBefore: Int32Array;
  private readonly linearized: LinearizedSet;
  private readonly stackOp: Int32Array;
  /** The state before each op on the stack; states are not interned (a store's states are nearly all distinct). */
  private readonly stackState: S[];
  private readonly pending: Uint8Array;
  private readonly readOnly: Uint8Array;
  /** Each op's part, as an index into partNames. */
  private readonly partOfOp: Int32Array;
  private readonly partNames: string[];
  /** Per part: its ops (ascending), how many of them are linearized, and a Zobrist hash of which. */
  private readonly opsOfPart: Int32Array[];
  private readonly linearizedInPart: Int32Array;
  private readonly partHash: Int32Array;
  private readonly zobrist: Int32Array;
  private readonly nogoods: Nogoods;
  private state: S;
  private depth = 0;
  private remaining = 0;
  private entry: number;
  private bestDepth = -1;
  private readonly bestOrder: Int32Array;
  private clean = 0;
  private bestState: S;
  private blocker = -1;
  private readonly hasReads: boolean;
  private readPass: boolean;
  private readonly deadEnd: DeadEndTest<S> | undefined;
  steps = 0;
  outcome: PartitionOutcome | undefined;

  constructor(
    private readonly model: FilledModel<S>,
    private readonly ops: readonly Operation[],
    private readonly budget: MemoryBudget,
    parts: StateParts<S>,
  ) {
    const n = (this.n = ops.length);
    ({
      next: this.next,
      prev: this.prev,
      sameBefore: this.sameBefore,
      pending: this.pending,
      readOnly: this.readOnly,
      remaining: this.remaining,
      entry: this.entry,
      deadEnd: this.deadEnd,
    } = searchFrame(model, ops));
    this.state = this.bestState = model.init();
    this.stackOp = new Int32Array(n);
    this.stackState = new Array<S>(n);
    this.bestOrder = new Int32Array(n);
    this.hasReads = this.readOnly.includes(1);
    this.readPass = this.hasReads;
    this.linearized = new LinearizedSet(n, this.remaining);

    const ids = new Map<string, number>();
    this.partOfOp = new Int32Array(n);
    const members: number[][] = [];
    for (let i = 0; i < n; i++) {
      const name = parts.partOf(ops[i]!);
      let id = ids.get(name);
      if (id === undefined) {
        ids.set(name, (id = ids.size));
        members.push([]);
      }
      this.partOfOp[i] = id;
      members[id]!.push(i);
    }
    this.partNames = [...ids.keys()];
    this.opsOfPart = members.map((m) => Int32Array.from(m));
    this.linearizedInPart = new Int32Array(ids.size);
    this.partHash = new Int32Array(ids.size);
    this.zobrist = new Int32Array(n);
    let x = 0x2545f491;
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.zobrist[i] = x;
    }
    this.nogoods = new Nogoods(parts, budget);
    if (this.remaining === 0) this.outcome = { valid: true, steps: 0, cacheEntries: 0 };
  }

  get cacheEntries(): number {
    return this.nogoods.size;
  }

  releaseMemory(): void {
    this.budget.releaseAll();
  }

  run(budget: number, deadline: number, now: Now): PartitionOutcome | undefined {
    if (this.outcome) return this.outcome;
    try {
      const stopped = this.loop(budget, deadline, now);
      this.outcome = stopped === PAUSED ? undefined : this.outcomeOf(stopped);
    } catch (err) {
      if (!(err instanceof CacheLimitError)) throw err;
      this.outcome = {
        valid: 'unknown',
        reason: `${err.message} (raise the ceiling: --max-search-mb, or partition the history)`,
        steps: this.steps,
        cacheEntries: this.nogoods.size,
      };
    }
    return this.outcome;
  }

  private outcomeOf(stopped: Stop): PartitionOutcome {
    const { steps } = this;
    const entries = this.nogoods.size;
    if (stopped === VALID) return { valid: true, steps, cacheEntries: entries };
    if (stopped === DEADLINE) return { valid: 'unknown', reason: 'deadline reached', steps, cacheEntries: entries };
    const best = this.bestState;
    const states = { states: [best], reason: (_: number, op: number) => (this.stepOf(best, op) === undefined ? this.reasonOf(best, op) : undefined) };
    return invalidOutcome(this.model, this.ops, states, this.bestOrder.subarray(0, Math.max(0, this.bestDepth)), 0, this.blocker, steps, entries);
  }

  private link(op: number): void {
    this.linearized.add(op);
    const p = this.partOfOp[op]!;
    this.linearizedInPart[p]!++;
    this.partHash[p]! ^= this.zobrist[op]!;
  }

  private unlinkOp(op: number): void {
    this.linearized.delete(op);
    const p = this.partOfOp[op]!;
    this.linearizedInPart[p]!--;
    this.partHash[p]! ^= this.zobrist[op]!;
  }

  /** The state after `op`, or undefined when it is illegal. */
  private stepOf(state: S, op: number): S | undefined {
    const r = this.model.step(state, this.ops[op]!);
    return r.ok ? r.state : undefined;
  }

  private reasonOf(state: S, op: number): string | undefined {
    const r = this.model.step(state, this.ops[op]!);
    return r.ok ? undefined : r.reason();
  }

  /** Whether part p of the configuration (the linearized set as it is, in `state`) is a known failure. */
  private isNogood(p: number, state: S): boolean {
    return this.nogoods.has(p, this.partNames[p]!, state, this.partHash[p]!, this.linearizedInPart[p]!, this.linearized);
  }

  private learn(p: number, state: S): void {
    this.nogoods.add(p, this.partNames[p]!, state, this.partHash[p]!, this.opsOfPart[p]!, this.linearized);
  }

  private loop(budget: number, deadline: number, now: Now): Stop {
    const { next, prev, sameBefore, stackOp, stackState, pending, readOnly, partOfOp } = this;
    const HEAD = 2 * this.n;
    let { state, depth, remaining, entry, steps, readPass } = this;
    const { hasReads, deadEnd } = this;
    const stop = steps + budget;
    let stopped: Stop = PAUSED;
    outer: while (remaining > 0) {
      if ((++steps & (CLOCK_EVERY - 1)) === 0) {
        if (now() > deadline) {
          stopped = DEADLINE;
          break;
        }
        if (steps >= stop) break;
      }
      // The part this configuration fails in, once known (-1: not known to fail).
      let failed = -1;
      if ((entry & 1) === 0) {
        const op = entry >> 1;
        if (readPass && readOnly[op] === 0) {
          entry = next[entry]!;
          continue;
        }
        const twin = sameBefore[op]!;
        const skip = twin !== -1 && !this.linearized.has(twin);
        const after = skip ? undefined : this.stepOf(state, op);
        if (after !== undefined) {
          this.link(op);
          const ruledOut = deadEnd !== undefined && readOnly[op] === 0 ? deadEnd(after, op, this.linearized.words, this.linearized.lo) : -1;
          if (ruledOut !== -1 && depth >= this.bestDepth) this.recordDeadEnd(depth, op, after, ruledOut);
          if (ruledOut === -1 && !this.isNogood(partOfOp[op]!, after)) {
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
            // As in wgl.ts: after a read in the read pass the reads before it are still illegal.
            if (readPass) entry = next[prev[entry]!]!;
            else {
              entry = next[HEAD]!;
              readPass = hasReads;
            }
            continue;
          }
          this.unlinkOp(op);
          // A legal read whose successor fails in its part: this configuration fails there too.
          if (readOnly[op] === 1) failed = partOfOp[op]!;
        }
        if (failed === -1) {
          entry = next[entry]!;
          continue;
        }
      }
      if (failed === -1) {
        if (readPass) {
          readPass = false;
          entry = next[HEAD]!;
          continue;
        }
        // The first return event, of op y: every candidate of y's part failed in it, so the part fails here.
        if (depth === this.bestDepth && this.blocker === -1) this.blocker = entry >> 1;
        failed = partOfOp[entry >> 1]!;
      }
      this.learn(failed, state);
      // Backjump: pop while the parent fails in the same part (the op popped is of another part, so the parent's
      // projection is the same; or a read linearized the moment it was legal, whose parent fails with it).
      let op: number;
      for (;;) {
        if (depth === 0) {
          stopped = INVALID;
          break outer;
        }
        depth--;
        if (depth < this.clean) this.clean = depth;
        op = stackOp[depth]!;
        state = stackState[depth]!;
        this.unlinkOp(op);
        if (pending[op] === 0) {
          relink(2 * op + 1, next, prev);
          remaining++;
        }
        relink(2 * op, next, prev);
        if (partOfOp[op] !== failed) continue;
        if (readOnly[op] === 0) break;
        // The read changed this part's linearized ops: the parent's projection is a new nogood.
        this.learn(failed, state);
      }
      readPass = false;
      entry = next[2 * op]!;
    }
    Object.assign(this, { state, depth, remaining, entry, steps, readPass });
    return stopped === PAUSED && remaining === 0 ? VALID : stopped;
  }

  private recordDeadEnd(depth: number, op: number, state: S, ruledOut: number): void {
    const stackOp = this.stackOp;
    for (let d = this.clean; d < depth; d++) this.bestOrder[d] = stackOp[d]!;
    this.bestOrder[depth] = op;
    this.clean = depth;
    this.bestDepth = depth + 1;
    this.bestState = state;
    this.blocker = ruledOut;
  }
}

/**
 * The failed projections (part, its linearized ops, its state): a hash table of
 * ids over columns. Exact: on a hash match, the count, the part's state and
 * every stored op (linearized now?) are compared.
 */
class Nogoods {
  size = 0;
  private slots = new Int32Array(1 << 10).fill(-1);
  private slotHash = new Int32Array(1 << 10);
  private partOf: number[] = [];
  private countOf: number[] = [];
  private stateOf: unknown[] = [];
  private opsOf: Int32Array[] = [];

  constructor(
    private readonly parts: StateParts<unknown>,
    private readonly budget: MemoryBudget,
  ) {}

  has<S>(p: number, name: string, state: S, linearizedHash: number, count: number, linearized: LinearizedSet): boolean {
    const partState = this.parts.part(state, name);
    const h = mix(p, linearizedHash, this.parts.hash(partState));
    const mask = this.slots.length - 1;
    for (let slot = (h ^ (h >>> 15)) & mask, id = this.slots[slot]!; id !== -1; slot = (slot + 1) & mask, id = this.slots[slot]!) {
      if (this.slotHash[slot] !== h || this.partOf[id] !== p || this.countOf[id] !== count) continue;
      if (!this.parts.equal(this.stateOf[id], partState)) continue;
      const ops = this.opsOf[id]!;
      let same = true;
      for (let i = 0; i < ops.length && same; i++) same = linearized.has(ops[i]!);
      if (same) return true;
    }
    return false;
  }

  add<S>(p: number, name: string, state: S, linearizedHash: number, opsOfPart: Int32Array, linearized: LinearizedSet): void {
    const partState = this.parts.part(state, name);
    const h = mix(p, linearizedHash, this.parts.hash(partState));
    const done: number[] = [];
    for (let i = 0; i < opsOfPart.length; i++) if (linearized.has(opsOfPart[i]!)) done.push(opsOfPart[i]!);
    this.budget.take(NOGOOD_OVERHEAD_BYTES + 4 * done.length);
    const id = this.size++;
    this.partOf.push(p);
    this.countOf.push(done.length);
    this.stateOf.push(partState);
    this.opsOf.push(Int32Array.from(done));
    const mask = this.slots.length - 1;
    let slot = (h ^ (h >>> 15)) & mask;
    while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
    this.slots[slot] = id;
    this.slotHash[slot] = h;
    if (this.size * 2 > this.slots.length) this.grow();
  }

  private grow(): void {
    this.budget.take(this.slots.length * 8);
    ({ slots: this.slots, slotHash: this.slotHash } = doubled({ slots: this.slots, slotHash: this.slotHash }));
  }
}

function mix(part: number, linearizedHash: number, stateHash: number): number {
  return (Math.imul(part + 1, 0x9e3779b1) ^ linearizedHash ^ Math.imul(stateHash, 0x85ebca77)) | 0;
}
