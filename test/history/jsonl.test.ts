import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import { readJsonl } from '../../src/history/jsonl-reader.js';
import { formatJsonlLine, JsonlWriter } from '../../runtime/store/jsonl-writer.js';
import type { Op, Value } from '../../core/history/op.js';
import { setField } from '../../core/history/op-from-record.js';
import { readHistory } from '../../src/history/read-history.js';
import { expectParseError, tempFile } from './temp-files.js';
import { testSeed } from '../support/seed.js';

const OK = '{"index":0,"time":10,"process":0,"type":"invoke","f":"acquire","value":null}';

async function collect(path: string, opts: Parameters<typeof readJsonl>[1] = {}): Promise<Op[]> {
  const ops: Op[] = [];
  for await (const op of readJsonl(path, opts)) ops.push(op);
  return ops;
}

describe('JSON Lines reader', () => {
  it('reads ops, skipping blank lines and CRLF endings, keeping extra fields and a missing value as null', async () => {
    const path = tempFile('ok.jsonl', `${OK}\r\n\n  \n{"index":1,"time":20,"process":"nemesis","type":"info","f":"start","node":"n1","error":["timeout",3]}\n`);
    expect(await collect(path)).toEqual([
      { index: 0, time: 10, process: 0, type: 'invoke', f: 'acquire', value: null },
      { index: 1, time: 20, process: 'nemesis', type: 'info', f: 'start', value: null, node: 'n1', error: ['timeout', 3] },
    ]);
  });

  it('reads an empty file as an empty history', async () => {
    expect(await readHistory(tempFile('empty.jsonl', ''))).toEqual([]);
  });

  describe('a truncated last line (interrupted run)', () => {
    const text = `${OK}\n{"index":1,"time":20,"process":0,"type":"ok","f":"acq`;

    it('is a ParseError by default', async () => {
      const path = tempFile('cut.jsonl', text);
      const err = await expectParseError(() => collect(path), path, {
        line: 2,
        column: 54,
        expected: 'valid JSON (Unterminated string)',
        found: 'end of line (the last line has no newline: the run was probably interrupted mid-write)',
      });
      expect(err.hint).toMatch(/--tolerate-truncated-tail/);
    });

    it('is skipped with a warning when tolerated', async () => {
      const path = tempFile('cut2.jsonl', text);
      const warnings: HistoryWarning[] = [];
      const ops = await readHistory(path, { tolerateTruncatedTail: true, onWarning: (w) => warnings.push(w) });
      expect(ops.map((o) => o.index)).toEqual([0]);
      expect(warnings).toEqual([{ kind: 'truncated-tail', message: `${path}:2: skipped a truncated last line (interrupted run)`, file: path, line: 2 }]);
    });

    it('is accepted when it parses (a file written without a final newline)', async () => {
      expect(await collect(tempFile('nofinal.jsonl', OK))).toHaveLength(1);
    });

    it('does not excuse a bad line that is not the last', async () => {
      const path = tempFile('mid.jsonl', `{"index":0,"time\n${OK}`);
      await expectParseError(() => collect(path, { tolerateTruncatedTail: true }), path, {
        line: 1,
        column: 17,
        expected: 'valid JSON (Unterminated string)',
        found: 'end of line',
      });
    });
  });
});

describe('JSON Lines writer', () => {
  const ops: Op[] = [
    { index: 0, time: 5, process: 2, type: 'invoke', f: 'acquire', value: null, node: 'n2' },
    { index: 1, time: 9, process: 2, type: 'ok', f: 'acquire', value: { lease: 'abc' }, token: 17 },
    { index: 2, time: 12, process: 'nemesis', type: 'info', f: 'kill', value: ['n1'], error: 'partial' },
  ];

  it('writes the schema fields first, in order, then the extras', () => {
    expect(formatJsonlLine({ f: 'x', token: 3, value: 1, type: 'ok', process: 1, time: 2, index: 0, error: 'e' } as Op)).toBe(
      '{"index":0,"time":2,"process":1,"type":"ok","f":"x","value":1,"error":"e","token":3}\n',
    );
  });

  it('appends line by line, each line on disk as soon as append returns', async () => {
    const path = tempFile('w.jsonl', '');
    const writer = JsonlWriter.open(path);
    writer.append(ops[0] as Op);
    // Before close: an interrupted run can already be read.
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(2);
    for (const op of ops.slice(1)) writer.append(op);
    writer.close();
    writer.close();
    expect(await readHistory(path)).toEqual(ops);
    expect(() => writer.append(ops[0] as Op)).toThrow(/closed/);
  });

  it('appends to an existing file unless asked to truncate', async () => {
    const path = tempFile('w2.jsonl', '');
    const first = JsonlWriter.open(path);
    first.append(ops[0] as Op);
    first.close();
    const second = JsonlWriter.open(path);
    second.append(ops[1] as Op);
    second.close();
    expect(await readHistory(path)).toEqual(ops.slice(0, 2));
    const fresh = JsonlWriter.open(path, { truncate: true });
    fresh.close();
    expect(await readHistory(path)).toEqual([]);
  });

  it('refuses an op whose time is not a finite number', () => {
    expect(() => formatJsonlLine({ ...(ops[0] as Op), time: Number.NaN })).toThrow(/non-negative finite/);
  });

  it('reports an unwritable path as a typed error', () => {
    expect(() => JsonlWriter.open('/nonexistent-dir/h.jsonl')).toThrow(/Cannot open history \/nonexistent-dir\/h.jsonl: ENOENT/);
  });
});

describe('JSON Lines round trip (property)', () => {
  // JSON has no -0: it is written as 0, so generate values without it; and numbers past 2^53 or below 2^-1022 are
  // refused on reading (another literal may read as the same double), so generate only what reads back exactly.
  const json = fc.jsonValue().map(dropNegativeZero);
  const extraKey = fc.constantFrom('node', 'token', 'lease', 'latency', '__proto__', 'weird "key"\n');
  const op = fc.record(
    {
      time: fc.nat(),
      process: fc.oneof(fc.nat(), fc.constant('nemesis' as const)),
      type: fc.constantFrom('invoke' as const, 'ok' as const, 'fail' as const, 'info' as const),
      f: fc.string({ minLength: 1 }),
      value: json,
      error: json,
      extras: fc.dictionary(extraKey, json),
    },
    { requiredKeys: ['time', 'process', 'type', 'f', 'value', 'extras'] },
  );

  it('random ops written then read back are the same ops', async () => {
    const seed = testSeed('JSONL round trip', 'test/history');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (drafts) => {
        const history: Op[] = drafts.map(({ extras, ...d }, index) => {
          const o: Op = { index, ...d };
          for (const [k, v] of Object.entries(extras)) setField(o, k, v);
          return o;
        });
        const path = tempFile(`prop-${run++}.jsonl`, '');
        const writer = JsonlWriter.open(path);
        for (const o of history) writer.append(o);
        writer.close();
        expect(await readHistory(path, { validate: false })).toEqual(history);
      }),
      { seed, numRuns: 150 },
    );
  });
});

function dropNegativeZero(v: unknown): Value {
  if (Object.is(v, -0)) return 0;
  // Beyond 2^53 (no fraction, neighbours merge) and below the smallest normal double (digits lost, underflow) the
  // reader refuses a number in any spelling (json-text-checks.ts): generate only what reads back as written.
  if (typeof v === 'number' && (Math.abs(v) >= 2 ** 53 || (v !== 0 && Math.abs(v) < 2 ** -1022))) return 0;
  if (Array.isArray(v)) return v.map(dropNegativeZero);
  if (typeof v === 'object' && v !== null) {
    const out: { [key: string]: Value } = {};
    for (const [k, x] of Object.entries(v)) setField(out, k, dropNegativeZero(x));
    return out;
  }
  return v as Value;
}
