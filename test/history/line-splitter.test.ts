import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/history/line-splitter.js';
import { readChunks } from '../../src/history/read-chunks.js';
import { tempFile } from './temp-files.js';
import { testSeed } from '../support/seed.js';

function split(chunks: string[]): { lines: string[]; numbers: number[]; unterminated: boolean } {
  const splitter = new LineSplitter();
  const out = { lines: [] as string[], numbers: [] as number[], unterminated: false };
  for (const batch of [...chunks.map((c) => splitter.push(c)), splitter.end()]) {
    if (batch === null) continue;
    batch.lines.forEach((line, i) => {
      out.lines.push(line);
      out.numbers.push(batch.firstLine + i);
    });
    out.unterminated ||= batch.unterminatedTail;
  }
  return out;
}

describe('LineSplitter', () => {
  it('numbers lines, strips CR and flags a last line without newline', () => {
    expect(split(['a\r\nb', '\n\nc'])).toEqual({ lines: ['a', 'b', '', 'c'], numbers: [1, 2, 3, 4], unterminated: true });
    expect(split(['a\n'])).toEqual({ lines: ['a'], numbers: [1], unterminated: false });
    expect(split([])).toEqual({ lines: [], numbers: [], unterminated: false });
  });

  it('gives the same lines however the text is cut into chunks', () => {
    const seed = testSeed('line chunking', 'test/history');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r') }), fc.array(fc.nat()), (text, cuts) => {
        const points = [0, ...cuts.map((c) => c % (text.length + 1)).sort((a, b) => a - b), text.length];
        const chunks = points.slice(1).map((end, i) => text.slice(points[i], end));
        const lines = text.split('\n');
        const last = lines.pop() as string;
        const expected = [...lines, ...(last === '' ? [] : [last])].map((l) => l.replace(/\r$/, ''));
        expect(split(chunks)).toEqual({ lines: expected, numbers: expected.map((_, i) => i + 1), unterminated: last !== '' });
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
