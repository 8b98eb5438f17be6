import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng, shuffle } from '../../src/nemesis/rng.js';

describe('seededRng', () => {
  it('gives the same sequence for the same seed, in [0, 1)', () => {
    const a = seededRng(123);
    const b = seededRng(123);
    const xs = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
    expect(seededRng(124)()).not.toBe(xs[0]);
  });
});

describe('shuffle', () => {
  it('is a permutation and does not touch its input', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer(), (items, seed) => {
        const copy = [...items];
        const out = shuffle(items, seededRng(seed));
        expect(items).toEqual(copy);
        expect([...out].sort((x, y) => x - y)).toEqual([...items].sort((x, y) => x - y));
      }),
      { seed: 1 },
    );
  });
});
