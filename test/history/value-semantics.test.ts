/**
 * What a value means, as the readers and the models agree on it: number
 * literals that a double cannot keep apart from a neighbour are refused in
 * every spelling (beyond 2^53, below the smallest normal double, underflow to
 * 0), and equality is EDN's and JSON's (maps and sets order-free, sets apart
 * from vectors), with hashing that follows it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { valueEquals, valueHash } from '../../core/checkers/models/value-equality.js';
import { ParseError } from '../../core/errors.js';
import { canonicalKey, SET_KEY } from '../../core/history/canonical-value.js';
import { parseEdn } from '../../src/history/edn.js';
import { parseJsonlLine } from '../../src/history/jsonl-reader.js';
import type { Value } from '../../core/history/op.js';
import { testSeed } from '../support/seed.js';

const jsonlWith = (literal: string) => `{"index":0,"time":0,"process":0,"type":"invoke","f":"write","value":${literal}}`;

const REFUSED = [
  '9007199254740993.0',
  '9007199254740992.0',
  '-9007199254740993.0',
  '9.007199254740993e15',
  '9007199254740993e0',
  '90071992547409930e-1',
  '1e16',
  '1.5e300',
  '1E+20',
  '1e-400',
  '-1e-400',
  '0.1e-330',
  `0.${'0'.repeat(400)}1`,
  '5e-324',
  '2e-308',
  '9007199254740993',
  '1e400',
  '-1e400',
];
const ACCEPTED = [
  '0',
  '-0',
  '0.0',
  '-0.0',
  '0e10',
  '0.000e-999',
  '1.5',
  '-2.5e-3',
  '9007199254740991',
  '9007199254740991.0',
  '2.2250738585072014e-308',
  '1e15',
  '123456.789',
];

describe('number literals a double cannot keep apart are refused, in every spelling', () => {
  it.each(REFUSED)('JSON Lines refuses %s at its column', (literal) => {
    const text = jsonlWith(literal);
    let err: unknown;
    try {
      parseJsonlLine(text, 'h.jsonl', 3);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).column).toBe(text.indexOf(literal) + 1);
    expect((err as ParseError).line).toBe(3);
    expect((err as ParseError).exitCode).toBe(254);
  });

  it.each(REFUSED)('EDN refuses %s (also with the N suffix where it applies; with M it is an exact BigDecimal)', (literal) => {
    expect(() => parseEdn(`{:value ${literal}}`)).toThrow(ParseError);
    if (!/[eE.]/.test(literal)) expect(() => parseEdn(`{:value ${literal}N}`)).toThrow(ParseError);
    // A BigDecimal is exact in Clojure and here (its digits), so nothing merges it with a neighbour: read, not refused.
    expect(parseEdn(`${literal}M`)).toEqual({ '#.M': expect.any(String) });
  });

  it('BigDecimals are exact: neighbours a double would merge stay apart, scale does not count', () => {
    expect(valueEquals(parseEdn('9007199254740993.0M'), parseEdn('9007199254740992.0M'))).toBe(false);
    expect(valueEquals(parseEdn('0.1M'), parseEdn('0.10000000000000001M'))).toBe(false);
    expect(valueEquals(parseEdn('1e400M'), parseEdn('1e401M'))).toBe(false);
    expect(valueEquals(parseEdn('1e400M'), parseEdn('10.0e399M'))).toBe(true);
    expect(valueEquals(parseEdn('9007199254740993.0M'), parseEdn('9007199254740993M'))).toBe(true);
  });

  it.each(ACCEPTED)('%s reads as the number it spells, in both formats', (literal) => {
    const op = parseJsonlLine(jsonlWith(literal), 'h.jsonl', 1)!;
    expect(op.value).toBe(Number(literal) === 0 ? op.value : Number(literal));
    expect(Number(op.value)).toBe(Number(literal));
    // EDN: an integer, or a double with a fraction, is the number; a double without one (`1e15`, `0.0`) is a tagged
    // double, kept apart from the integer as Clojure's `=` keeps `1.0` apart from `1`.
    const n = Number(literal) || 0;
    expect(parseEdn(literal)).toEqual(!/[.eE]/.test(literal) || !Number.isInteger(n) ? n : { '#.': n });
  });

  it('a refused literal in an index, time or process field is refused too (a merged process would pair wrongly)', () => {
    expect(() => parseJsonlLine('{"index":0,"time":0,"process":1e-400,"type":"invoke","f":"read","value":null}', 'h.jsonl', 1)).toThrow(ParseError);
  });
});

describe('equality as EDN and JSON mean it', () => {
  const read = (edn: string) => parseEdn(edn);
  it.each([
    ['{:a 1 :b 2}', '{:b 2 :a 1}'],
    ['#{1 2 3}', '#{3 1 2}'],
    ['#{{:a 1 :b 2} [1 2]}', '#{[1 2] {:b 2 :a 1}}'],
    ['{:s #{:x :y} :m {:p 1 :q [#{1 2}]}}', '{:m {:q [#{2 1}] :p 1} :s #{:y :x}}'],
    ['[1 {:a #{}}]', '[1 {:a #{}}]'],
  ])('%s equals %s, with the same hash', (a, b) => {
    expect(valueEquals(read(a), read(b))).toBe(true);
    expect(valueHash(read(a))).toBe(valueHash(read(b)));
  });

  it.each([
    ['#{1 2}', '[1 2]'],
    ['#{1 2}', '(1 2)'],
    ['[1 2]', '[2 1]'],
    ['#{1 2}', '#{1 2 3}'],
    ['{:a 1}', '{:a 1 :b 2}'],
    ['{:a [1 2]}', '{:a #{1 2}}'],
    ['#{}', '[]'],
    ['#{}', '{}'],
  ])('%s differs from %s', (a, b) => {
    expect(valueEquals(read(a), read(b))).toBe(false);
  });

  it('JSON objects are equal whatever their key order; arrays keep theirs', () => {
    const a = parseJsonlLine('{"index":0,"time":0,"process":0,"type":"ok","f":"read","value":{"x":[1,{"p":1,"q":2}],"y":null}}', 'h', 1)!.value;
    const b = parseJsonlLine('{"index":0,"time":0,"process":0,"type":"ok","f":"read","value":{"y":null,"x":[1,{"q":2,"p":1}]}}', 'h', 1)!.value;
    expect(valueEquals(a, b)).toBe(true);
    expect(valueHash(a)).toBe(valueHash(b));
    expect(valueEquals([1, 2], [2, 1])).toBe(false);
  });

  it("EDN refuses a set with a duplicate member and a map with a duplicate key, duplicate under Clojure's =", () => {
    expect(() => read('#{1 2 1}')).toThrow(/a set without duplicate members/);
    expect(() => read('#{{:a 1 :b 2} {:b 2 :a 1}}')).toThrow(/a set without duplicate members/);
    expect(() => read('#{1 1N}')).toThrow(/a set without duplicate members/);
    expect(() => read('{:a 1 :a 2}')).toThrow(/a map without duplicate keys/);
    expect(() => read('{1 :a 1N :b}')).toThrow(/a map without duplicate keys/);
    // A keyword and a string of the same name are two keys, as to Clojure.
    expect(valueEquals(read('{:a 1 "a" 2}'), read('{"a" 2 :a 1}'))).toBe(true);
    expect(valueEquals(read('{:a 1 "a" 2}'), read('{:a 1}'))).toBe(false);
  });

  it('a string-keyed EDN map spelled like a set is a map, not the set', () => {
    const map = read(`{"${SET_KEY}" [1 2]}`);
    expect(valueEquals(map, read('#{1 2}'))).toBe(false);
    expect(valueEquals(map, read(`{"${SET_KEY}" (1 2)}`))).toBe(true);
  });

  it('property: shuffling every map and set of a random value changes neither equality nor hash; a set never equals its vector', () => {
    const seed = testSeed('value semantics: shuffled maps and sets', 'test/history/value-semantics.test.ts');
    // An EDN text of a random value and a second spelling of it with every map's entries and set's members shuffled.
    type Tree = { kind: 'leaf'; text: string } | { kind: 'vec' | 'set'; items: Tree[] } | { kind: 'map'; entries: [string, Tree][] };
    const leaf = fc.oneof(fc.integer({ min: -1000, max: 1000 }).map(String), fc.constantFrom('nil', 'true', ':k', '"s"', '1.5', '"é€"'));
    const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree }>((tie) => ({
      t: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf.map((text) => ({ kind: 'leaf' as const, text })),
        fc.array(tie('t'), { maxLength: 4 }).map((items) => ({ kind: 'vec' as const, items })),
        fc
          .uniqueArray(tie('t'), { maxLength: 4, selector: (x) => canonicalKey(parseEdn(render(x, () => 0))) })
          .map((items) => ({ kind: 'set' as const, items })),
        fc
          .uniqueArray(fc.tuple(fc.constantFrom(':a', ':b', ':c', ':d', '"e"'), tie('t')), { maxLength: 4, selector: ([k]) => k.replace(/[:"]/g, '') })
          .map((entries) => ({ kind: 'map' as const, entries })),
      ),
    })).t;
    const render = (t: Tree, pick: (n: number) => number): string => {
      if (t.kind === 'leaf') return t.text;
      const order = <X>(xs: X[]): X[] => {
        const rest = [...xs];
        const out: X[] = [];
        while (rest.length > 0) out.push(rest.splice(pick(rest.length), 1)[0]!);
        return out;
      };
      if (t.kind !== 'map') {
        const items = (t.kind === 'set' ? order(t.items) : t.items).map((x) => render(x, pick)).join(' ');
        return t.kind === 'set' ? `#{${items}}` : `[${items}]`;
      }
      return `{${order(t.entries)
        .map(([k, v]) => `${k} ${render(v, pick)}`)
        .join(' ')}}`;
    };
    fc.assert(
      fc.property(tree, fc.array(fc.nat(), { minLength: 64, maxLength: 64 }), (t, choices) => {
        let i = 0;
        const a = parseEdn(render(t, () => 0));
        const b = parseEdn(render(t, (n) => choices[i++ % choices.length]! % n));
        expect(valueEquals(a, b)).toBe(true);
        expect(valueHash(a)).toBe(valueHash(b));
        if (t.kind === 'set' && t.items.length > 0) {
          const asVector = parseEdn(`[${t.items.map((x) => render(x, () => 0)).join(' ')}]`) as Value;
          expect(valueEquals(a, asVector)).toBe(false);
        }
      }),
      { seed, numRuns: 2000 },
    );
  });
});
