import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shuffle } from '../../core/generator/rng.js';
import { Prng } from '../../core/random/prng.js';

describe('shuffle', () => {
  it('is a permutation and does not touch its input', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.nat(), (items, seed) => {
        const copy = [...items];
        const out = shuffle(items, new Prng(seed).asRng());
        expect(items).toEqual(copy);
        expect([...out].sort((x, y) => x - y)).toEqual([...items].sort((x, y) => x - y));
      }),
      { seed: 1 },
    );
  });

  it('is the same for the same seed', () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    expect(shuffle(items, new Prng(7).asRng())).toEqual(shuffle(items, new Prng(7).asRng()));
  });
});
