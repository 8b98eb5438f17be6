/**
 * showValue writes a value as its input spelled it: JSON as JSON, EDN's own types as EDN, and a map read
 * from EDN whose values are EDN (`{"1" :x}`) as an EDN map (it was shown `{"1"::x}`, which reads as neither).
 */
import { describe, expect, it } from 'vitest';
import { showValue } from '../../core/history/show-value.js';
import { parseEdn } from '../../src/history/edn.js';

const shownFromEdn = (text: string): string => showValue(parseEdn(text));

describe('showValue', () => {
  it('writes JSON values as JSON', () => {
    expect(showValue({ a: 1, b: [null, 'x'] })).toBe('{"a":1,"b":[null,"x"]}');
  });

  it('writes a string-keyed map holding EDN values as EDN, and it reads back as the same value', () => {
    for (const text of ['{"1" :x}', '{"a" 1.0, "b" 2}', '{"k" #{1 2}}']) {
      const shown = shownFromEdn(text);
      expect(shown, text).not.toMatch(/":[:#]/);
      expect(parseEdn(shown), `${text} shown as ${shown}`).toEqual(parseEdn(text));
    }
  });
});
