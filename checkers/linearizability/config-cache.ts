/**
 * The set of configurations (linearized ops, model state) the search has seen
 * (Lowe's memoisation of Wing & Gong).
 *
 * Why typed arrays and open addressing: a JavaScript Map of cloned bitsets
 * allocates on every probe and the garbage collector, not the search, becomes
 * most of the cost. Here a probe allocates nothing: the caller passes the two
 * 32-bit halves of an incrementally maintained (Zobrist) hash of the bitset,
 * the state id is mixed in, and the bitset is copied into one growing arena
 * only when a configuration is new.
 */

export class CacheLimitError extends Error {
  constructor(readonly bytes: number) {
    super(`configuration cache reached ${Math.round(bytes / 2 ** 20)} MiB`);
  }
}

/** One memory ceiling shared by the caches of all partitions searched together. */
export class MemoryBudget {
  used = 0;
  constructor(readonly max: number) {}
  /** Account for `delta` more bytes; throws CacheLimitError past the ceiling. */
  take(delta: number): void {
    if (this.used + delta > this.max) throw new CacheLimitError(this.used + delta);
    this.used += delta;
  }
  release(bytes: number): void {
    this.used -= bytes;
  }
}

export class ConfigCache {
  private capacity = 1 << 12;
  private key1 = new Int32Array(this.capacity);
  private key2 = new Int32Array(this.capacity);
  private stateOf = new Int32Array(this.capacity);
  private offset = new Int32Array(this.capacity).fill(-1);
  private arena: Uint32Array;
  private arenaUsed = 0;
  size = 0;

  constructor(
    private readonly words: number,
    private readonly budget: MemoryBudget,
  ) {
    this.arena = new Uint32Array(Math.max(1024, words * 256));
    budget.take(this.bytes());
  }

  /** Insert the configuration; true if it was new, false if seen before. Throws CacheLimitError past maxBytes. */
  insert(h1: number, h2: number, state: number, bits: Uint32Array): boolean {
    const k1 = (h1 ^ Math.imul(state + 1, 0x9e3779b1)) | 0;
    const k2 = (h2 ^ Math.imul(state + 1, 0x85ebca77)) | 0;
    const mask = this.capacity - 1;
    const words = this.words;
    let slot = (k1 ^ (k1 >>> 16)) & mask;
    for (;;) {
      const off = this.offset[slot]!;
      if (off === -1) break;
      if (this.key1[slot] === k1 && this.key2[slot] === k2 && this.stateOf[slot] === state) {
        let same = true;
        for (let w = 0; w < words; w++) {
          if (this.arena[off + w] !== bits[w]) {
            same = false;
            break;
          }
        }
        if (same) return false;
      }
      slot = (slot + 1) & mask;
    }
    if (this.arenaUsed + words > this.arena.length) this.growArena();
    this.arena.set(bits.subarray(0, words), this.arenaUsed);
    this.key1[slot] = k1;
    this.key2[slot] = k2;
    this.stateOf[slot] = state;
    this.offset[slot] = this.arenaUsed;
    this.arenaUsed += words;
    this.size++;
    if (this.size * 2 > this.capacity) this.growTable();
    return true;
  }

  bytes(): number {
    return this.arena.byteLength + this.capacity * 16;
  }

  private growArena(): void {
    this.budget.take(this.arena.byteLength);
    const next = new Uint32Array(this.arena.length * 2);
    next.set(this.arena.subarray(0, this.arenaUsed));
    this.arena = next;
  }

  private growTable(): void {
    const old = { k1: this.key1, k2: this.key2, st: this.stateOf, off: this.offset, cap: this.capacity };
    this.budget.take(this.capacity * 16);
    this.capacity *= 2;
    this.key1 = new Int32Array(this.capacity);
    this.key2 = new Int32Array(this.capacity);
    this.stateOf = new Int32Array(this.capacity);
    this.offset = new Int32Array(this.capacity).fill(-1);
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
    }
  }
}
