/**
 * detached / StringPool give back equal strings, from the pool, past its
 * bound, cut from a longer string or not. (That a detached string keeps no
 * chunk alive and that pooled ones are one copy is measured on the heap, in
 * docs/checker.md: JavaScript cannot tell two equal strings apart.)
 */
import { describe, expect, it } from 'vitest';
import { detached, StringPool } from '../../src/history/detached-strings.js';

describe('detached', () => {
  it('gives back an equal string, short or long, cut from a longer one or not', () => {
    const line = `{:process 1, :type :ok, :f :get, :key "7", :value "${'x 12 345 y'.repeat(8)}"}`;
    const cut = line.slice(line.indexOf(':value "') + 8, -2);
    expect(detached(cut)).toBe('x 12 345 y'.repeat(8));
    expect(detached('x')).toBe('x');
    expect(detached('')).toBe('');
    expect(detached('é"\\\n\u0000')).toBe('é"\\\n\u0000');
  });
});

describe('StringPool', () => {
  it('gives back equal strings for cut and joined ones, first seen or pooled', () => {
    const pool = new StringPool();
    const a = pool.shared('key 12345678901234'.slice(0, 17));
    const b = pool.shared(['key 1234567890', '1234'].join(''));
    expect(a).toBe('key 1234567890123');
    expect(b).toBe('key 12345678901234');
    expect(pool.shared('key 1234567890123')).toBe(a);
  });

  it('past its bound, still gives back equal strings', () => {
    const pool = new StringPool(4);
    const got = Array.from({ length: 10 }, (_, i) => pool.shared(`k${i}`));
    expect(got).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`));
    expect(pool.shared('k9')).toBe('k9');
  });
});
