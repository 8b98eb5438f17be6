import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/history/line-splitter.js';
import { readChunks } from '../../src/history/read-chunks.js';
import { tempFile } from './temp-files.js';
import { testSeed } from '../support/seed.js';

function split(chunks: string[]): { lines: string[]; numbers: number[]; unterminated: boolean; refused?: { line: number; column: number } } {
  const splitter = new LineSplitter('t.txt');
  const out: ReturnType<typeof split> = { lines: [], numbers: [], unterminated: false };
  for (const next of [...chunks.map((c) => () => splitter.push(c)), () => splitter.end()]) {
    const batch = next();
    if (batch === null) continue;
    batch.lines.forEach((line, i) => {
      out.lines.push(line);
      out.numbers.push(batch.firstLine + i);
    });
    out.unterminated ||= batch.unterminatedTail;
    if (batch.refused) return { ...out, refused: { line: batch.refused.line, column: batch.refused.column } };
  }
  return out;
}

describe('LineSplitter', () => {
  it('numbers lines, strips CR and flags a last line without newline', () => {
    expect(split(['a\r\nb', '\n\nc'])).toEqual({ lines: ['a', 'b', '', 'c'], numbers: [1, 2, 3, 4], unterminated: true });
    expect(split(['a\n'])).toEqual({ lines: ['a'], numbers: [1], unterminated: false });
    expect(split([])).toEqual({ lines: [], numbers: [], unterminated: false });
  });

  it('refuses a bare CR, and every other line terminator, outside a string, at its line and column', () => {
    expect(split(['a\nb\rc\n'])).toEqual({ lines: ['a'], numbers: [1], unterminated: false, refused: { line: 2, column: 2 } });
    expect(split(['a\r', '\r\n'])).toEqual({ lines: [], numbers: [], unterminated: false, refused: { line: 1, column: 2 } });
    expect(split(['{"a":"\u2028"}\n{"b":1}\u2029\n'])).toEqual({
      lines: ['{"a":"\u2028"}'],
      numbers: [1],
      unterminated: false,
      refused: { line: 2, column: 8 },
    });
    expect(split(['{:a "\\"\u0085"}\n'])).toEqual({ lines: ['{:a "\\"\u0085"}'], numbers: [1], unterminated: false });
    expect(split(['x \\" \u2028\n'])).toEqual({ lines: [], numbers: [], unterminated: false, refused: { line: 1, column: 6 } });
    expect(split(['{:a 1} ; "\u2028"\n'])).toEqual({ lines: [], numbers: [], unterminated: false, refused: { line: 1, column: 11 } });
  });

  it('gives the same lines however the text is cut into chunks, and refuses the first bare CR', () => {
    const seed = testSeed('line chunking', 'test/history');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r') }), fc.array(fc.nat()), (text, cuts) => {
        const points = [0, ...cuts.map((c) => c % (text.length + 1)).sort((a, b) => a - b), text.length];
        const chunks = points.slice(1).map((end, i) => text.slice(points[i], end));
        const lines = text.split('\n');
        const last = lines.pop() as string;
        const all = [...lines, ...(last === '' ? [] : [last])].map((l) => l.replace(/\r$/, ''));
        const bad = all.findIndex((l) => l.includes('\r'));
        const expected = bad < 0 ? all : all.slice(0, bad);
        const refused = bad < 0 ? {} : { refused: { line: bad + 1, column: all[bad]!.indexOf('\r') + 1 } };
        expect(split(chunks)).toEqual({ lines: expected, numbers: expected.map((_, i) => i + 1), unterminated: bad < 0 && last !== '', ...refused });
      }),
      { seed, numRuns: 300 },
    );
  });
});

describe('readChunks', () => {
  it('reassembles UTF-8 sequences cut by a chunk boundary and drops a BOM', () => {
    const text = 'é→😀 {"value":"ünï"}\n'.repeat(5);
    const path = tempFile('utf8.jsonl', `\ufeff${text}`);
    for (const size of [1, 2, 3, 5, 7, 64]) expect([...readChunks(path, size)].join('')).toBe(text);
  });
});
