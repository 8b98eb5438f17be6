/**
 * Line framing in every line-oriented format (JSON Lines, the Jepsen etcd log,
 * the Porcupine kv log): a line ends at LF (or CRLF), and any other line
 * terminator outside a string is a 254 at its line:column; inside a string it
 * is the string's own character; one line holds one op and nothing after it.
 * Generated register and kv histories, rendered in each format, then framed
 * wrongly: two ops joined by a terminator, a terminator put anywhere outside a
 * string, two ops on one line, an op with trailing text. Seeds printed; replay
 * with FC_SEED.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../core/errors.js';
import type { Op } from '../../core/history/op.js';
import { readHistory, type HistoryFormat } from '../../src/history/read-history.js';
import { tempFile } from './temp-files.js';
import { testSeed } from '../support/seed.js';

type LineFormat = Extract<HistoryFormat, 'jsonl' | 'porcupine-etcd' | 'porcupine-kv'>;
const FORMATS: readonly LineFormat[] = ['jsonl', 'porcupine-etcd', 'porcupine-kv'];
const EXT: Record<LineFormat, string> = { jsonl: 'jsonl', 'porcupine-etcd': 'log', 'porcupine-kv': 'txt' };

const LINE_END_EXPECTED = 'every line ended by LF or CRLF, and no other line terminator outside a string';

/** Whether offset `p` of a generated line (strings there have no escapes) is outside its strings: an even count of quotes before it. */
const outsideString = (line: string, p: number): boolean => (line.slice(0, p).match(/"/g)?.length ?? 0) % 2 === 0;

/** Every character a reader may end a line at, but LF: CR (alone), VT, FF, FS, GS, RS, NEL, LS, PS. */
export const STRAY_TERMINATORS = ['\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'] as const;

/** A sequential history: each process invokes, then completes, in turn; values small integers (kv: short strings). */
const history = (kv: boolean): fc.Arbitrary<Op[]> =>
  fc
    .array(fc.tuple(fc.nat({ max: 3 }), fc.constantFrom('ok', 'fail', 'info'), fc.nat({ max: 4 }), fc.boolean()), { minLength: 2, maxLength: 8 })
    .map((steps) => {
      const ops: Op[] = [];
      let pid = 0;
      for (const [p, done, v, read] of steps) {
        const process = pid++ * 4 + p;
        const f = kv ? (read ? 'get' : 'put') : read ? 'read' : 'write';
        const value = kv ? ['k', read ? null : `v${v}`] : read ? null : v;
        ops.push({ index: ops.length, time: ops.length, process, type: 'invoke', f, value });
        ops.push({ index: ops.length, time: ops.length, process, type: done as Op['type'], f, value: kv ? ['k', `v${v}`] : v });
      }
      return ops;
    });

/** One op as a line of `format`. */
function render(op: Op, format: LineFormat): string {
  if (format === 'jsonl') return JSON.stringify({ index: op.index, time: op.time, process: op.process, type: op.type, f: op.f, value: op.value });
  if (format === 'porcupine-etcd') return `INFO  jepsen.util - ${op.process}\t:${op.type}\t:${op.f}\t${op.value === null ? 'nil' : String(op.value)}`;
  const [key, value] = op.value as [string, string | null];
  return `{:process ${op.process}, :type :${op.type}, :f :${op.f}, :key "${key}", :value ${value === null ? 'nil' : `"${value}"`}}`;
}

async function refusal(format: LineFormat, text: string): Promise<ParseError> {
  const path = tempFile(`framing-${Math.random().toString(36).slice(2)}.${EXT[format]}`, text);
  const err = await readHistory(path, { format }).then(
    (ops) => new Error(`read ${ops.length} ops from ${JSON.stringify(text)}`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ParseError);
  return err as ParseError;
}

const formatAndHistory = fc.constantFrom(...FORMATS).chain((format) => fc.tuple(fc.constant(format), history(format === 'porcupine-kv')));

describe('line framing: a line ends at LF or CRLF, nothing else', () => {
  it('two ops joined by any other line terminator are refused at the terminator, in every format', async () => {
    const seed = testSeed('line framing: joined ops', 'test/history/line-framing.test.ts');
    await fc.assert(
      fc.asyncProperty(formatAndHistory, fc.nat(), fc.constantFrom(...STRAY_TERMINATORS), fc.boolean(), async ([format, ops], at, stray, crlf) => {
        const lines = ops.map((op) => render(op, format));
        const i = at % (lines.length - 1);
        const joined = [...lines.slice(0, i), lines[i]! + stray + lines[i + 1]!, ...lines.slice(i + 2)];
        const err = await refusal(format, joined.join(crlf ? '\r\n' : '\n') + '\n');
        expect({ line: err.line, column: err.column, expected: err.expected }).toEqual({
          line: i + 1,
          column: lines[i]!.length + 1,
          expected: LINE_END_EXPECTED,
        });
        expect(err.exitCode).toBe(254);
      }),
      { seed, numRuns: 300 },
    );
  });

  it("a terminator anywhere outside a string is refused there; inside a string it is the string's own character", async () => {
    const seed = testSeed('line framing: anywhere', 'test/history/line-framing.test.ts');
    await fc.assert(
      fc.asyncProperty(formatAndHistory, fc.nat(), fc.nat(), fc.constantFrom(...STRAY_TERMINATORS), async ([format, ops], at, pos, stray) => {
        const lines = ops.map((op) => render(op, format));
        const i = at % lines.length;
        const p = pos % (lines[i]!.length + 1);
        const line = lines[i]!.slice(0, p) + stray + lines[i]!.slice(p);
        if (!outsideString(line, p)) return; // inside a string: the next property's case
        if (stray === '\r' && p === lines[i]!.length) return; // a CR before the line's LF is a CRLF
        lines[i] = line;
        const err = await refusal(format, lines.join('\n') + '\n');
        expect({ line: err.line, column: err.column, expected: err.expected }).toEqual({ line: i + 1, column: p + 1, expected: LINE_END_EXPECTED });
      }),
      { seed, numRuns: 300 },
    );
  });

  it('inside a string value LS, PS and NEL are kept, in every format that has strings there', async () => {
    const seed = testSeed('line framing: in strings', 'test/history/line-framing.test.ts');
    const text = fc
      .array(fc.constantFrom('a', ' ', '\u2028', '\u2029', '\x85', 'INFO  jepsen.util - 1\t:ok\t:read\t2', '{:process 1}'), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FORMATS), text, async (format, s) => {
        const edn = JSON.stringify(s);
        const lines =
          format === 'jsonl'
            ? [
                JSON.stringify({ index: 0, time: 0, process: 0, type: 'invoke', f: 'write', value: s }),
                JSON.stringify({ index: 1, time: 1, process: 0, type: 'ok', f: 'write', value: s }),
              ]
            : format === 'porcupine-etcd'
              ? [`INFO  jepsen.util - 0\t:invoke\t:write\t${edn}`, `INFO  jepsen.util - 0\t:ok\t:write\t${edn}`]
              : [`{:process 0, :type :invoke, :f :put, :key "k", :value ${edn}}`, `{:process 0, :type :ok, :f :put, :key "k", :value ${edn}}`];
        const path = tempFile(`in-string-${Math.random().toString(36).slice(2)}.${EXT[format]}`, lines.join('\n') + '\n');
        const read = await readHistory(path, { format });
        expect(read.map((op) => op.value)).toEqual(
          format === 'porcupine-kv'
            ? [
                ['k', s],
                ['k', s],
              ]
            : [s, s],
        );
      }),
      { seed, numRuns: 200 },
    );
  });
});

describe('one op a line, and nothing after it', () => {
  it('etcd log: two ops on one line, an op with trailing text, or a corrupted op before a good one are refused', async () => {
    const seed = testSeed('line framing: etcd one op a line', 'test/history/line-framing.test.ts');
    const corrupt = (line: string, how: number): string =>
      [line.replace(':invoke', ':invokx'), line.replace(':ok', ':okk'), line.replace(/- \d+/, '- x1'), line.replace('jepsen.util', 'jepsen.utiI')][how % 4]!;
    await fc.assert(
      fc.asyncProperty(
        history(false),
        fc.nat(),
        fc.constantFrom(' ', '\t', '  ', ' \t '),
        fc.oneof(fc.constant('second'), fc.constant('corrupt-first'), fc.constantFrom('garbage', ':x', '1', 'nil', '[1 2]', ':timed-out')),
        fc.nat(),
        async (ops, at, gap, kind, how) => {
          const lines = ops.map((op) => render(op, 'porcupine-etcd'));
          const i = at % (lines.length - 1);
          let line: string;
          if (kind === 'second') line = lines[i] + gap + lines[i + 1];
          else if (kind === 'corrupt-first') line = corrupt(lines[i]!, how) + gap + lines[i + 1];
          else line = lines[i] + gap + kind;
          const text = [...lines.slice(0, i), line, ...lines.slice(kind === 'second' || kind === 'corrupt-first' ? i + 2 : i + 1)].join('\n') + '\n';
          const err = await refusal('porcupine-etcd', text);
          expect(err.line).toBe(i + 1);
        },
      ),
      { seed, numRuns: 300 },
    );
  });

  it('JSON Lines and the kv log: a second op or trailing text after an op is refused', async () => {
    const seed = testSeed('line framing: jsonl and kv one op a line', 'test/history/line-framing.test.ts');
    const formats = fc.constantFrom<LineFormat>('jsonl', 'porcupine-kv').chain((format) => fc.tuple(fc.constant(format), history(format === 'porcupine-kv')));
    await fc.assert(
      fc.asyncProperty(
        formats,
        fc.nat(),
        fc.constantFrom('', ' ', '\t', ', '),
        fc.constantFrom('second', 'x', '1', '{}', 'nil', 'null'),
        async ([format, ops], at, gap, what) => {
          const lines = ops.map((op) => render(op, format));
          const i = at % (lines.length - 1);
          const line = lines[i] + gap + (what === 'second' ? lines[i + 1] : what);
          const text = [...lines.slice(0, i), line, ...lines.slice(what === 'second' ? i + 2 : i + 1)].join('\n') + '\n';
          const err = await refusal(format, text);
          expect(err.line).toBe(i + 1);
        },
      ),
      { seed, numRuns: 200 },
    );
  });
});

describe('the examples of issue #32', () => {
  it('a bare CR or U+2028 joining a read that contradicts a write is refused, not read as valid', async () => {
    const write = 'INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - 0\t:ok\t:write\t1\n';
    for (const stray of ['\r', '\u2028']) {
      const err = await refusal(
        'porcupine-etcd',
        `${write}INFO  jepsen.util - 1\t:invoke\t:read\tnil\nINFO  jepsen.util - 1\t:ok\t:read\t2${stray}INFO  jepsen.util - 2\t:invoke\t:read\tnil\n`,
      );
      expect({ line: err.line, column: err.column }).toEqual({ line: 4, column: 34 });
      expect(err.message).toMatch(stray === '\r' ? /a carriage return \(U\+000D\) not followed by a line feed/ : /a line separator \(U\+2028\)/);
      expect(err.hint).toMatch(/tr '\\r' '\\n'/);
    }
  });
});
