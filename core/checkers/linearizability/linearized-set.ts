/**
 * The set of linearized operations of the current configuration: a bitset
 * with an incrementally maintained Zobrist hash (two 32-bit halves) and the
 * bounds of its "interesting" words.
 *
 * Why the bounds: ids are given so that completed operations come first, in
 * invocation order, and pending ones last. Whatever the search does, the
 * completed ops that returned long ago are all linearized and those invoked
 * much later are all not, so the completed part of every cached bitset is
 * all-ones words, then a window of mixed words, then zero words. The cache
 * stores only the window [lo, hi] plus the id of the tail words (the pending
 * ops and the word they share with the last completed ones), interned: for a
 * history of thousands of ops that is a few words per configuration instead
 * of hundreds, even with thousands of pending ops.
 */

const FULL = 0xffffffff;

export class LinearizedSet {
  readonly words: Uint32Array;
  h1 = 0;
  h2 = 0;
  /** First word of the completed region that is not all ones (== headWords when all are). */
  lo = 0;
  /** Last word of the completed region that is not zero (-1 when all are). */
  hi = -1;
  /** Words that hold only completed ops: [0, headWords). The rest is the tail, interned by the cache. */
  readonly headWords: number;
  /** Set when a tail word changed since the cache last interned the tail. */
  tailDirty = true;
  private readonly zob1: Int32Array;
  private readonly zob2: Int32Array;

  /** `completed` ops have ids [0, completed); pending ops follow. */
  constructor(n: number, completed: number) {
    this.words = new Uint32Array(Math.max(1, Math.ceil(n / 32)));
    this.headWords = Math.floor(completed / 32);
    this.zob1 = new Int32Array(n);
    this.zob2 = new Int32Array(n);
    seedZobrist(this.zob1, this.zob2);
  }

  has(op: number): boolean {
    return (this.words[op >> 5]! & (1 << (op & 31))) !== 0;
  }

  add(op: number): void {
    const w = op >> 5;
    const words = this.words;
    words[w]! |= 1 << (op & 31);
    this.h1 ^= this.zob1[op]!;
    this.h2 ^= this.zob2[op]!;
    if (w >= this.headWords) {
      this.tailDirty = true;
      return;
    }
    if (w > this.hi) this.hi = w;
    if (w === this.lo) {
      let lo = w;
      while (lo < this.headWords && words[lo] === FULL) lo++;
      this.lo = lo;
    }
  }

  delete(op: number): void {
    const w = op >> 5;
    const words = this.words;
    words[w]! &= ~(1 << (op & 31));
    this.h1 ^= this.zob1[op]!;
    this.h2 ^= this.zob2[op]!;
    if (w >= this.headWords) {
      this.tailDirty = true;
      return;
    }
    if (w < this.lo) this.lo = w;
    if (w === this.hi) {
      let hi = w;
      while (hi >= 0 && words[hi] === 0) hi--;
      this.hi = hi;
    }
  }
}

/** A fixed-seed xorshift: deterministic hashes, so runs and witnesses are reproducible. */
function seedZobrist(a: Int32Array, b: Int32Array): void {
  let x = 0x2545f491;
  const rnd = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x | 0;
  };
  for (let i = 0; i < a.length; i++) {
    a[i] = rnd();
    b[i] = rnd();
  }
}
