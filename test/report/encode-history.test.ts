/**
 * The history's columns are lossless: encoded here and decoded by the page's
 * own decoder (data.js, run in a V8 context), every op comes back with every
 * field, for random histories; and the columns are compact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { History, Op } from '../../core/history/op.js';
import { setField } from '../../core/history/op-from-record.js';
import { encodeHistory, type HistoryColumns } from '../../src/report/encode-history.js';
import { testSeed } from '../support/seed.js';
import { loadPageScripts } from './page-script.js';

interface Decoded {
  n: number;
}
const page = loadPageScripts<{ decodeHistory: (c: HistoryColumns) => Decoded; opAt: (h: Decoded, line: number) => Op }>(['data.js'], ['decodeHistory', 'opAt']);
const roundTrip = (history: History, keep?: (line: number) => boolean): Op[] => {
  const decoded = page.decodeHistory(JSON.parse(JSON.stringify(encodeHistory(history, keep))) as HistoryColumns);
  // Objects from the V8 context have its prototypes: compare as plain JSON-shaped data.
  return Array.from({ length: decoded.n }, (_, i) => ({ ...page.opAt(decoded, i) }));
};

describe('encodeHistory', () => {
  const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as Op['value']);
  const op = fc.record({
    gap: fc.integer({ min: 1, max: 3 }),
    dt: fc.oneof(fc.nat({ max: 5_000_000_000 }), fc.constant(0)),
    process: fc.oneof(fc.nat({ max: 20 }), fc.constant('nemesis' as const)),
    type: fc.constantFrom('invoke' as const, 'ok' as const, 'fail' as const, 'info' as const),
    f: fc.oneof(fc.constantFrom('acquire', 'release', 'read', 'write'), fc.string({ minLength: 1 })),
    value: json,
    extras: fc.dictionary(
      fc.constantFrom('token', 'outcome', 'error', 'node', '__proto__', '</script>'),
      fc.oneof(json, fc.constantFrom('accepted', 'rejected')),
    ),
  });

  it('round-trips every field of every op through the page decoder (property)', () => {
    const seed = testSeed('report columns round trip', 'test/report');
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.boolean(), (drafts, fractional) => {
        let index = 0;
        let time = 0;
        const history: History = drafts.map(({ gap, dt, extras, ...d }) => {
          index += gap;
          time += fractional ? dt + 0.25 : dt;
          const o: Op = { index, time, ...d };
          for (const [k, v] of Object.entries(extras)) setField(o, k, v);
          return o;
        });
        expect(roundTrip(history)).toEqual(history);
      }),
      { seed, numRuns: 200 },
    );
  });

  it('dictionary-codes repeated strings and delta-codes indexes and times', () => {
    const history: History = Array.from({ length: 100 }, (_, i) => ({
      index: i,
      time: 1_000_000_000 + i * 1000,
      process: i % 3,
      type: 'ok',
      f: 'write',
      value: i,
      outcome: i % 2 ? 'accepted' : 'rejected',
    }));
    const cols = encodeHistory(history);
    expect(cols.index.slice(0, 3)).toEqual([0, 1, 1]);
    expect(cols.time.slice(0, 3)).toEqual([1_000_000_000, 1000, 1000]);
    expect(cols.sparse.find((c) => c.key === 'outcome')).toMatchObject({ dict: ['rejected', 'accepted'] });
    expect(roundTrip(history)).toEqual(history);
  });

  it('keeps the fields of the lines asked for only', () => {
    const history: History = [0, 1, 2].map((i) => ({ index: i, time: i, process: 0, type: i % 2 ? 'ok' : 'invoke', f: 'read', value: 7, token: 9 }));
    expect(roundTrip(history, (line) => line === 1)).toEqual([
      { index: 0, time: 0, process: 0, type: 'invoke', f: 'read', value: null },
      history[1],
      { index: 2, time: 2, process: 0, type: 'invoke', f: 'read', value: null },
    ]);
  });
});
