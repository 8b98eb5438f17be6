import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEdn } from '../../src/history/edn.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import { opFromKvForm, porcupineKvParser } from '../../src/history/porcupine-kv-importer.js';
import { readHistory } from '../../src/history/read-history.js';
import { tempFile } from './temp-files.js';
import { testSeed } from '../support/seed.js';

describe('Jepsen etcd log importer', () => {
  it('maps each op line, with tabs or expanded spaces, and a timed-out completion to an error', async () => {
    const path = tempFile(
      'etcd.log',
      [
        'INFO  jepsen.util - 0\t:invoke\t:read\tnil',
        'INFO  jepsen.util - 1   :invoke :cas    [3 -1]',
        'INFO  jepsen.util - 0\t:ok\t:read\t3',
        'INFO  jepsen.util - 1\t:fail\t:cas\t[3 -1]',
        'INFO  jepsen.util - 2\t:invoke\t:write\t4',
        'INFO  jepsen.util - 2\t:info\t:write\t:timed-out',
        'INFO  jepsen.util - 3  :invoke :read   nil',
        'INFO  jepsen.util - 3  :fail   :read   :timed-out  ',
        '2015-04-22 12:00:01,234{GMT}\tINFO  jepsen.util - :nemesis\t:info\t:start\t{:isolated ["n1"]}',
      ].join('\n') + '\n',
    );
    expect(await readHistory(path)).toEqual([
      { index: 0, time: 0, process: 0, type: 'invoke', f: 'read', value: null },
      { index: 1, time: 1, process: 1, type: 'invoke', f: 'cas', value: [3, -1] },
      { index: 2, time: 2, process: 0, type: 'ok', f: 'read', value: 3 },
      { index: 3, time: 3, process: 1, type: 'fail', f: 'cas', value: [3, -1] },
      { index: 4, time: 4, process: 2, type: 'invoke', f: 'write', value: 4 },
      { index: 5, time: 5, process: 2, type: 'info', f: 'write', value: null, error: 'timed-out' },
      { index: 6, time: 6, process: 3, type: 'invoke', f: 'read', value: null },
      { index: 7, time: 7, process: 3, type: 'fail', f: 'read', value: null, error: 'timed-out' },
      // The value is EDN, read as such: a keyword-keyed map (docs/history.md).
      { index: 8, time: 8, process: 'nemesis', type: 'info', f: 'start', value: { '#{:}': { isolated: ['n1'] } } },
    ]);
  });

  it('skips log noise, counts it and reports it once', async () => {
    const path = tempFile(
      'noise.log',
      'INFO  jepsen.core - Running test\n\nINFO  jepsen.util - 0\t:invoke\t:read\tnil\nWARN  jepsen.os.debian - :n1 setting up debian\nINFO  jepsen.util - 0\t:ok\t:read\tnil\n',
    );
    const warnings: HistoryWarning[] = [];
    const ops = await readHistory(path, { onWarning: (w) => warnings.push(w) });
    expect(ops).toHaveLength(2);
    expect(warnings).toEqual([
      {
        kind: 'log-noise',
        message: `${path}: skipped 2 line(s) that are not jepsen.util op lines (the first at line 1)`,
        file: path,
        line: 1,
        count: 2,
      },
    ]);
  });
});

describe('Porcupine kv importer', () => {
  it('moves the key into a [key, value] tuple (jepsen.independent)', async () => {
    const path = tempFile(
      'c01.txt',
      '{:process 0, :type :invoke, :f :get, :key "6", :value nil}\n{:process 0, :type :ok, :f :get, :key "6", :value "x 0 0 y"}\n',
    );
    expect(await readHistory(path)).toEqual([
      { index: 0, time: 0, process: 0, type: 'invoke', f: 'get', value: ['6', null] },
      { index: 1, time: 1, process: 0, type: 'ok', f: 'get', value: ['6', 'x 0 0 y'] },
    ]);
  });
});

describe('Porcupine kv fast path', () => {
  it('reads every line as the EDN reader does (property)', () => {
    const seed = testSeed('kv fast path', 'test/history');
    const text = fc.string({ unit: fc.constantFrom('a', 'x', ' ', '0', '"', '\\', '\n', 'é') });
    fc.assert(
      fc.property(
        fc.nat(60),
        fc.constantFrom('invoke', 'ok', 'fail', 'info'),
        fc.constantFrom('get', 'put', 'append'),
        text,
        fc.option(text),
        (process, type, f, key, value) => {
          // JSON's string escapes are all EDN escapes too.
          const line = `{:process ${process}, :type :${type}, :f :${f}, :key ${JSON.stringify(key)}, :value ${value === null ? 'nil' : JSON.stringify(value)}}`;
          const fast = porcupineKvParser('kv.txt').push(`${line}\n`);
          const viaEdn = opFromKvForm({ value: parseEdn(line), line: 1, column: 1, text: line }, 0, 'kv.txt');
          expect(fast).toEqual([viaEdn]);
        },
      ),
      { seed, numRuns: 500 },
    );
  });
});

describe('Jepsen EDN importer', () => {
  it('maps op maps, with defaults for index, time and value, and extra keys as fields', async () => {
    const path = tempFile(
      'h.edn',
      '[{:type :invoke, :f :acquire, :process 3, :time 371408519, :index 2}\n' +
        ' #jepsen.history.Op{:type :fail, :f :acquire, :process 3, :time 371408600, :index 5, :error [:not-found "lease"], :node "n1"}]\n',
    );
    expect(await readHistory(path)).toEqual([
      { index: 2, time: 371408519, process: 3, type: 'invoke', f: 'acquire', value: null },
      // A keyword `:error` is its name; a vector one stays as read, its keyword a keyword.
      { index: 5, time: 371408600, process: 3, type: 'fail', f: 'acquire', value: null, error: [{ '#:': 'not-found' }, 'lease'], node: 'n1' },
    ]);
    const stream = tempFile('stream.edn', '{:type :info, :f :start, :process :nemesis}\n{:type :info, :f :stop, :process :nemesis, :value 1}\n');
    expect(await readHistory(stream)).toEqual([
      { index: 0, time: 0, process: 'nemesis', type: 'info', f: 'start', value: null },
      { index: 1, time: 1, process: 'nemesis', type: 'info', f: 'stop', value: 1 },
    ]);
  });
});
