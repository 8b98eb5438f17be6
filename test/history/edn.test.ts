import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EdnReader, parseEdn, type EdnForm } from '../../src/history/edn.js';
import { expectParseError } from './temp-files.js';
import { testSeed } from '../support/seed.js';

const at = (file: string) => ({ file, line: 1, column: 1 });

describe('EDN values', () => {
  it.each([
    ['nil', null],
    ['true', true],
    ['false', false],
    [':invoke', { '#:': 'invoke' }],
    [':jepsen.history/op', { '#:': 'jepsen.history/op' }],
    ['some-symbol', { "#'": 'some-symbol' }],
    ['42', 42],
    ['-7', -7],
    ['+3', 3],
    ['-0', 0],
    ['-2.5', -2.5],
    ['1.5e3', { '#.': 1500 }],
    ['1.5e-1', 0.15],
    ['1.25M', { '#.M': '1.25' }],
    ['1.2500e1M', { '#.M': '12.5' }],
    ['9007199254740991N', 9007199254740991],
    ['1/4', { '#/': '1/4' }],
    ['-6/8', { '#/': '-3/4' }],
    ['6/3', 2],
    ['"plain"', 'plain'],
    ['"tab\\there \\"quoted\\" back\\\\slash\\nnew \\u00e9"', 'tab\there "quoted" back\\slash\nnew é'],
    ['"multi\nline"', 'multi\nline'],
    ['\\a', { '#\\': 'a' }],
    ['\\newline', { '#\\': '\n' }],
    ['##Inf', { '#.': 'Infinity' }],
    ['##-Inf', { '#.': '-Infinity' }],
    ['[1 2 3]', [1, 2, 3]],
    ['(1 -2)', [1, -2]],
    ['#{:a}', { '#{}': [{ '#:': 'a' }] }],
    ['{:a 1}', { '#{:}': { a: 1 } }],
    ['{"a" 1}', { a: 1 }],
    ['[]', []],
    ['{}', {}],
  ])('%s', (text, value) => {
    expect(parseEdn(text)).toEqual(value);
  });

  it.each(['9007199254740993N', '12345678901234567890', '-9007199254740992', '1e400', '-1e400'])('refuses %s, which a double cannot hold exactly', (text) => {
    expect(() => parseEdn(`[1 ${text}]`, at('big.edn'))).toThrow(
      /big\.edn:1:4: expected (an integer within ±\(2\^53 - 1\)|a number within the range of a double)/,
    );
  });

  it('reads a BigDecimal exactly, beyond the range of a double too', () => {
    expect(parseEdn('-1e400M')).toEqual({ '#.M': '-1E400' });
    expect(parseEdn('[1.50M 15e-1M 0.00M]')).toEqual([{ '#.M': '1.5' }, { '#.M': '1.5' }, { '#.M': '0' }]);
  });

  it('reads nested maps, vectors and sets, with commas as whitespace, and keys of any kind kept apart', () => {
    // Keys not all keywords or all strings: [key, value] entries, sorted by key (a string, an integer, a vector, a keyword).
    expect(parseEdn('{:a [1, {:b #{2}}], "s" (nil), 3 :three, [1 2] :v}')).toEqual({
      '#{[]}': [
        ['s', [null]],
        [3, { '#:': 'three' }],
        [[1, 2], { '#:': 'v' }],
        [{ '#:': 'a' }, [1, { '#{:}': { b: { '#{}': [2] } } }]],
      ],
    });
  });

  it('skips comments, discarded forms and metadata', () => {
    expect(parseEdn('; a comment\n[1 ; inline\n #_ 2 #_{:x 1} 3 ^:meta 4 ^{:m 1} 5] ; end')).toEqual([1, 3, 4, 5]);
  });

  it('reads a tagged literal as its tag and value; #inst as its millisecond in UTC, #uuid in lower case', () => {
    expect(parseEdn('#jepsen.history.Op{:type :ok, :f :read}')).toEqual({ '#jepsen.history.Op': { '#{:}': { type: { '#:': 'ok' }, f: { '#:': 'read' } } } });
    expect(parseEdn('[#inst "2015-04-22T14:00:00.0009+02:00" #uuid "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"]')).toEqual([
      { '#inst': '2015-04-22T12:00:00.000Z' },
      { '#uuid': 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' },
    ]);
    // Clojure's reader throws on a #uuid that is not 8-4-4-4-12 hex digits.
    expect(() => parseEdn('#uuid "f81d4fae"')).toThrow(/a #uuid string of 8-4-4-4-12 hex digits/);
  });

  it('keeps a __proto__ key as data', () => {
    const v = parseEdn('{"__proto__" 1}') as { [k: string]: unknown };
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });
});

describe('malformed EDN', () => {
  const file = 'h.edn';

  it('rejects a second value after the one it reads', async () => {
    await expectParseError(() => parseEdn('1 2', at(file)), file, { line: 1, column: 3, expected: 'the end of the value', found: '`2`' });
  });

  it('reports an unclosed top-level vector at the end of a stream', async () => {
    const reader = new EdnReader(file);
    expect(reader.push('[{:a 1}\n{:b 2}').map((f) => f.value)).toEqual([{ '#{:}': { a: 1 } }, { '#{:}': { b: 2 } }]);
    await expectParseError(() => reader.end(), file, {
      line: 2,
      column: 7,
      expected: '`]` to close the vector opened at 1:1',
      found: 'end of file',
    });
  });

  it('refuses nesting deeper than 1000 without overflowing the stack', () => {
    expect(() => parseEdn('['.repeat(5000))).toThrow(/nesting at most 1000 deep/);
  });
});

describe('EDN streaming', () => {
  const text =
    '[{:type :invoke, :f :read, :process 0, :index 0}\n' +
    ' ; a comment with ] and "quotes"\n' +
    ' #jepsen.history.Op{:type :ok, :f :read, :process 0, :value "a\\"b\nc", :index 1}\n' +
    ' {:type :info, :f :start, :process :nemesis, :value #{1 2}, :index 2 :n 123456789N}]\n' +
    '{:after :vector, :x -1.5e-3}';

  const readAll = (chunks: string[]): EdnForm[] => {
    const reader = new EdnReader('s.edn');
    const forms = chunks.flatMap((c) => reader.push(c));
    return [...forms, ...reader.end()];
  };

  it('unwraps a top-level vector and reads the maps after it, with positions', () => {
    const forms = readAll([text]);
    expect(forms.map((f) => [f.line, f.column])).toEqual([
      [1, 2],
      [3, 2],
      [5, 2],
      [6, 1],
    ]);
    const kw = (name: string) => ({ '#:': name });
    expect(forms[2]?.value).toEqual({ '#{:}': { type: kw('info'), f: kw('start'), process: kw('nemesis'), value: { '#{}': [1, 2] }, index: 2, n: 123456789 } });
    expect(forms[3]?.value).toEqual({ '#{:}': { after: kw('vector'), x: -0.0015 } });
  });

  it('gives the same forms however the text is cut into chunks', () => {
    const whole = readAll([text]);
    const seed = testSeed('EDN chunking', 'test/history');
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), text.length];
        const chunks = points.slice(1).map((end, i) => text.slice(points[i], end));
        expect(readAll(chunks)).toEqual(whole);
      }),
      { seed, numRuns: 300 },
    );
  });
});
