/**
 * The one seeded pseudo-random generator of the run's plans: client think
 * and hold times, fault choices, partition shapes. Same seed, same numbers,
 * on every machine (integer arithmetic only; `exponential` uses Math.log,
 * which V8 computes with the same fdlibm port everywhere).
 *
 * `fork(label)` derives an independent stream from this generator's seed and
 * the label alone, not from how many numbers were drawn so far. So client 3's
 * plan is the same whether client 2 drew ten numbers or ten thousand, and
 * adding a fault kind does not reshuffle the clients' think times.
 *
 * The core is splitmix32 (a Weyl sequence through a 32-bit mixer): small,
 * fast, and it passes the usual statistical batteries; plenty for test plans,
 * not for cryptography.
 */

const GOLDEN = 0x9e3779b9;

/** splitmix32's output function: a bijective 32-bit mixer. */
function mix32(x: number): number {
  let t = x >>> 0;
  t = Math.imul(t ^ (t >>> 16), 0x21f0aaad);
  t = Math.imul(t ^ (t >>> 15), 0x735a2d97);
  return (t ^ (t >>> 15)) >>> 0;
}

/** FNV-1a over the label's UTF-16 code units: a label's fork seed. */
function hashLabel(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class Prng {
  /** The 32-bit seed this stream started from; forks derive from it. */
  readonly seed: number;
  private state: number;

  /** `seed`: any non-negative safe integer; the bits above 2^32 are mixed in, not dropped, and seeds below 2^32 are used as they are. */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new RangeError(`Expected \`seed\` to be a non-negative safe integer, got \`${seed}\``);
    }
    this.seed = ((seed >>> 0) ^ mix32(Math.floor(seed / 2 ** 32))) >>> 0;
    this.state = this.seed;
  }

  /** The next 32-bit unsigned integer. */
  next(): number {
    this.state = (this.state + GOLDEN) >>> 0;
    return mix32(this.state);
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 2 ** 32;
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi < lo) {
      throw new RangeError(`Expected integers lo <= hi, got \`${lo}\` and \`${hi}\``);
    }
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** An exponentially distributed float with the given mean: the gap between Poisson arrivals. */
  exponential(mean: number): number {
    // 1 - float() is in (0, 1], so the log is finite.
    return -mean * Math.log(1 - this.float());
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Expected a non-empty list to pick from');
    return items[this.int(0, items.length - 1)]!;
  }

  /** An independent stream named by `label`: depends on this stream's seed and the label only. */
  fork(label: string): Prng {
    return new Prng(mix32(this.seed ^ mix32(hashLabel(label) + GOLDEN)));
  }

  /** This stream as a `() => number` in [0, 1), for functions that take an `Rng` (src/nemesis/grudge.ts). */
  asRng(): () => number {
    return () => this.float();
  }
}
