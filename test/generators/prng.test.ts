/**
 * The seeded PRNG: pinned outputs (a change of algorithm must be deliberate,
 * since it changes every recorded schedule), determinism, forks that do not
 * depend on draws, ranges, and seed validation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Prng } from '../../core/random/prng.js';
import { testSeed } from '../support/seed.js';

const draw = (p: Prng, n: number): number[] => Array.from({ length: n }, () => p.next());

describe('Prng', () => {
  const seed = testSeed('prng', 'test/generators');

  it('pins its first outputs for seed 1', () => {
    const p = new Prng(1);
    expect(draw(p, 3)).toEqual([1580013426, 350525680, 3524174333]);
    expect(p.float()).toBe(0.7012168897781521);
    expect(p.int(1, 6)).toBe(1);
    expect(p.exponential(100)).toBe(75.82999850651095);
  });

  it('the same seed gives the same stream', () => {
    fc.assert(
      fc.property(fc.nat(), (s) => {
        expect(draw(new Prng(s), 20)).toEqual(draw(new Prng(s), 20));
      }),
      { seed, numRuns: 100 },
    );
  });

  it('a fork depends on the seed and the label only, not on what was drawn', () => {
    fc.assert(
      fc.property(fc.nat(), fc.string(), fc.nat(50), (s, label, drawn) => {
        const parent = new Prng(s);
        draw(parent, drawn);
        parent.fork('other').next();
        expect(draw(parent.fork(label), 5)).toEqual(draw(new Prng(s).fork(label), 5));
      }),
      { seed, numRuns: 100 },
    );
  });

  it('different labels and nested forks give different streams', () => {
    const root = new Prng(7);
    const streams = [root.fork('client-0'), root.fork('client-1'), root.fork('client-0').fork('think'), root].map((p) => draw(p, 4).join());
    expect(new Set(streams).size).toBe(4);
  });

  it('int stays within its bounds, both included, and pick picks from the list', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: -50, max: 50 }), fc.nat(20), (s, lo, span) => {
        const p = new Prng(s);
        const seen = new Set(Array.from({ length: 40 * (span + 1) }, () => p.int(lo, lo + span)));
        expect([...seen].every((x) => Number.isInteger(x) && x >= lo && x <= lo + span)).toBe(true);
        expect(seen.size).toBe(span + 1);
        expect(['a', 'b', 'c']).toContain(p.pick(['a', 'b', 'c']));
      }),
      { seed, numRuns: 50 },
    );
  });

  it('float is in [0, 1) and exponential has its mean', () => {
    const p = new Prng(3);
    const floats = Array.from({ length: 10_000 }, () => p.float());
    expect(floats.every((f) => f >= 0 && f < 1)).toBe(true);
    const mean = Array.from({ length: 20_000 }, () => p.exponential(250)).reduce((a, b) => a + b) / 20_000;
    expect(mean).toBeGreaterThan(240);
    expect(mean).toBeLessThan(260);
  });

  it('asRng draws from the same stream', () => {
    const a = new Prng(9);
    const b = new Prng(9).asRng();
    expect([b(), b()]).toEqual([a.float(), a.float()]);
  });

  it('seeds below 2^32 are used as they are; the bits above are mixed in, not dropped', () => {
    expect(new Prng(123).seed).toBe(123);
    expect(new Prng(2 ** 32 + 1).seed).not.toBe(new Prng(1).seed);
    expect(new Prng(2 ** 40).seed).not.toBe(0);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])('rejects the seed %s', (s) => {
    expect(() => new Prng(s)).toThrow(RangeError);
  });

  it('rejects an empty pick and an inverted range', () => {
    expect(() => new Prng(1).pick([])).toThrow(/non-empty/);
    expect(() => new Prng(1).int(3, 2)).toThrow(/lo <= hi/);
  });
});
