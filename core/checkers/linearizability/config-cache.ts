/**
 * The set of configurations (linearized ops, model state) the search has seen
 * (Lowe's memoisation of Wing & Gong).
 *
 * Why typed arrays and open addressing: a JavaScript Map of cloned bitsets
 * allocates on every probe and the garbage collector, not the search, becomes
 * most of the cost. Here a probe allocates nothing: the key is the linearized
 * set's incrementally maintained hash mixed with the state id, and only a new
 * configuration is copied into one growing arena, and only its window of
 * interesting words (see linearized-set.ts).
 */
import type { LinearizedSet } from './linearized-set.js';
import { doubled } from './open-addressing.js';

export class CacheLimitError extends Error {
  /** `ceiling`: the configured limit, which is what the message names (the growth that would pass it can overshoot). */
  constructor(readonly ceiling: number) {
    super(`the search's tables reached their ceiling of ${Math.round(ceiling / 2 ** 20)} MiB`);
  }
}

/**
 * One memory ceiling shared by the tables of all partitions searched
 * together. Each partition takes from a child budget, so that when it is
 * decided everything it took goes back to the others at once.
 */
export class MemoryBudget {
  used = 0;
  constructor(
    readonly max: number,
    private readonly parent?: MemoryBudget,
  ) {}

  /** A budget whose takings count against this one too. */
  child(): MemoryBudget {
    return new MemoryBudget(Infinity, this);
  }

  /** Account for `delta` more bytes; throws CacheLimitError past the ceiling. */
  take(delta: number): void {
    if (this.parent) this.parent.take(delta);
    else if (this.used + delta > this.max) throw new CacheLimitError(this.max);
    this.used += delta;
  }

  /** Give back everything taken through this budget. */
  releaseAll(): void {
    if (this.parent) this.parent.used -= this.used;
    this.used = 0;
  }
}

/**
 * The tails of linearized sets (the words of the pending ops, see
 * linearized-set.ts) as small ints. Why: a long history has thousands of
 * pending (timed-out) ops, whose words made every cache entry hundreds of
 * bytes, while the tail changes only when a pending op is linearized.
 * Interned exactly: equal ids iff equal words.
 */
class TailInterner {
  private slots = new Int32Array(1 << 8).fill(-1);
  private slotHash = new Int32Array(1 << 8);
  /** Tail id → its offset in the arena; every tail has the same length. */
  private offsets: Int32Array = new Int32Array(1 << 8);
  private arena: Uint32Array;
  private count = 0;

  constructor(
    private readonly width: number,
    private readonly budget: MemoryBudget,
  ) {
    this.arena = new Uint32Array(Math.max(1, width) << 8);
    budget.take(this.arena.byteLength + this.slots.byteLength * 3);
  }

  /** The id of words[from, from + width). */
  intern(words: Uint32Array, from: number): number {
    const width = this.width;
    let h = 0x811c9dc5 | 0;
    for (let w = 0; w < width; w++) h = Math.imul(h ^ words[from + w]!, 0x01000193);
    const mask = this.slots.length - 1;
    let slot = (h ^ (h >>> 15)) & mask;
    for (let id = this.slots[slot]!; id !== -1; id = this.slots[slot]!) {
      if (this.slotHash[slot] === h && this.same(this.offsets[id]!, words, from)) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.count++;
    if (id === this.offsets.length) this.growIds();
    const at = id * width;
    for (let w = 0; w < width; w++) this.arena[at + w] = words[from + w]!;
    this.offsets[id] = at;
    this.slots[slot] = id;
    this.slotHash[slot] = h;
    if (this.count * 2 > this.slots.length) this.growSlots();
    return id;
  }

  private same(at: number, words: Uint32Array, from: number): boolean {
    for (let w = 0; w < this.width; w++) if (this.arena[at + w] !== words[from + w]) return false;
    return true;
  }

  private growIds(): void {
    const ids = this.offsets.length * 2;
    this.budget.take(ids * 4 + (ids - this.offsets.length) * this.width * 4);
    const offsets = new Int32Array(ids);
    offsets.set(this.offsets);
    this.offsets = offsets;
    const arena = new Uint32Array(Math.max(1, this.width) * ids);
    arena.set(this.arena);
    this.arena = arena;
  }

  private growSlots(): void {
    this.budget.take(this.slots.length * 2 * 8);
    ({ slots: this.slots, slotHash: this.slotHash } = doubled({ slots: this.slots, slotHash: this.slotHash }));
  }
}

/** Bytes per table slot: five Int32 columns. */
const SLOT_BYTES = 20;

/** The table's first size for a part of `ops` operations: small parts (most histories) stay small, big ones skip the first doublings. */
function initialCapacity(ops: number): number {
  const want = Math.min(Math.max(ops * 8, 1 << 8), 1 << 14);
  return 1 << Math.ceil(Math.log2(want));
}

export class ConfigCache {
  private capacity: number;
  private key1: Int32Array;
  private key2: Int32Array;
  private stateOf: Int32Array;
  private offset: Int32Array;
  private loOf: Int32Array;
  private arena: Uint32Array;
  private arenaUsed = 0;
  private tails: TailInterner | undefined;
  /** The id of the tail as it was when the set's tailDirty was last cleared. */
  private tailId = 0;
  size = 0;

  /** `ops`: the part's operation count, to size the first tables (a hint; they grow as needed). */
  constructor(
    private readonly budget: MemoryBudget,
    ops = 512,
  ) {
    const capacity = (this.capacity = initialCapacity(ops));
    this.key1 = new Int32Array(capacity);
    this.key2 = new Int32Array(capacity);
    this.stateOf = new Int32Array(capacity);
    this.offset = new Int32Array(capacity).fill(-1);
    this.loOf = new Int32Array(capacity);
    this.arena = new Uint32Array(capacity * 4);
    budget.take(this.arena.byteLength + this.capacity * SLOT_BYTES);
  }

  /** Insert the configuration; true if it was new, false if seen before. Throws CacheLimitError past the budget. */
  insert(set: LinearizedSet, state: number): boolean {
    const k1 = (set.h1 ^ Math.imul(state + 1, 0x9e3779b1)) | 0;
    const k2 = (set.h2 ^ Math.imul(state + 1, 0x85ebca77)) | 0;
    const words = set.words;
    const lo = set.lo;
    const hi = set.hi;
    const head = hi >= lo ? hi - lo + 1 : 0;
    if (set.tailDirty) {
      this.tails ??= new TailInterner(words.length - set.headWords, this.budget);
      this.tailId = this.tails.intern(words, set.headWords);
      set.tailDirty = false;
    }
    const tail = this.tailId;
    const mask = this.capacity - 1;
    let slot = (k1 ^ (k1 >>> 16)) & mask;
    for (;;) {
      const off = this.offset[slot]!;
      if (off === -1) break;
      if (this.key1[slot] === k1 && this.key2[slot] === k2 && this.stateOf[slot] === state && this.loOf[slot] === lo) {
        if (this.sameWords(off, words, lo, head, tail)) return false;
      }
      slot = (slot + 1) & mask;
    }
    // An entry in the arena: [window length][window words lo..hi][tail id].
    const need = 2 + head;
    if (this.arenaUsed + need > this.arena.length) this.growArena(need);
    const arena = this.arena;
    let at = this.arenaUsed;
    arena[at++] = head;
    for (let w = 0; w < head; w++) arena[at++] = words[lo + w]!;
    arena[at++] = tail;
    this.key1[slot] = k1;
    this.key2[slot] = k2;
    this.stateOf[slot] = state;
    this.loOf[slot] = lo;
    this.offset[slot] = this.arenaUsed;
    this.arenaUsed = at;
    this.size++;
    if (this.size * 2 > this.capacity) this.growTable();
    return true;
  }

  private sameWords(off: number, words: Uint32Array, lo: number, head: number, tail: number): boolean {
    const arena = this.arena;
    if (arena[off] !== head) return false;
    let at = off + 1;
    for (let w = 0; w < head; w++) if (arena[at++] !== words[lo + w]) return false;
    return arena[at] === tail;
  }

  private growArena(need: number): void {
    let length = this.arena.length * 2;
    while (length < this.arenaUsed + need) length *= 2;
    this.budget.take((length - this.arena.length) * 4);
    const next = new Uint32Array(length);
    next.set(this.arena.subarray(0, this.arenaUsed));
    this.arena = next;
  }

  private growTable(): void {
    const old = { k1: this.key1, k2: this.key2, st: this.stateOf, off: this.offset, lo: this.loOf, cap: this.capacity };
    this.budget.take(this.capacity * SLOT_BYTES);
    this.capacity *= 2;
    this.key1 = new Int32Array(this.capacity);
    this.key2 = new Int32Array(this.capacity);
    this.stateOf = new Int32Array(this.capacity);
    this.offset = new Int32Array(this.capacity).fill(-1);
    this.loOf = new Int32Array(this.capacity);
    const mask = this.capacity - 1;
    for (let i = 0; i < old.cap; i++) {
      const off = old.off[i]!;
      if (off === -1) continue;
      const k1 = old.k1[i]!;
      let slot = (k1 ^ (k1 >>> 16)) & mask;
      while (this.offset[slot] !== -1) slot = (slot + 1) & mask;
      this.key1[slot] = k1;
      this.key2[slot] = old.k2[i]!;
      this.stateOf[slot] = old.st[i]!;
      this.offset[slot] = off;
      this.loOf[slot] = old.lo[i]!;
    }
  }
}
