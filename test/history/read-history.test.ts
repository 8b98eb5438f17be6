import { describe, expect, it } from 'vitest';
import { FencecheckError, ParseError, UsageError } from '../../core/errors.js';
import type { HistoryWarning } from '../../core/history/history-warning.js';
import type { History, Op } from '../../core/history/op.js';
import { detectFormat, readHistory, readOps, type HistoryFormat } from '../../src/history/read-history.js';
import { HistoryError, validateHistory } from '../../core/history/validate-history.js';
import { tempFile } from './temp-files.js';

describe('detectFormat', () => {
  it.each<[string, string, HistoryFormat]>([
    ['h.jsonl', '{"index":0,"time":0,"process":0,"type":"invoke","f":"read","value":null}\n', 'jsonl'],
    ['history', '\n\n  { "index": 0}', 'jsonl'],
    ['h.edn', '{"index" 0}', 'edn'],
    ['etcd_000.log', 'INFO  jepsen.util - 0\t:invoke\t:read\tnil\n', 'porcupine-etcd'],
    ['run.txt', 'INFO  jepsen.core - Running\nINFO  jepsen.util - 0\t:invoke\t:read\tnil\n', 'porcupine-etcd'],
    ['c01-ok.txt', '{:process 0, :type :invoke, :f :get, :key "6", :value nil}\n', 'porcupine-kv'],
    ['kv.edn', '{:process 0, :type :invoke, :f :get, :key "6", :value nil}\n', 'edn'],
    ['h.txt', '[{:type :invoke, :f :read, :process 0}]', 'edn'],
    ['h.txt', '{:type :invoke, :f :read, :process 0}', 'edn'],
    ['h.txt', '{:process 0, :type :invoke, :f :read}', 'edn'],
    ['h.txt', '; comment\n[]', 'edn'],
    ['h.txt', '#jepsen.history.Op{:type :ok}', 'edn'],
    ['empty.log', '', 'porcupine-etcd'],
    ['empty', '  \n', 'jsonl'],
  ])('%s %j -> %s', (path, text, format) => {
    expect(detectFormat(path, text)).toBe(format);
    expect(detectFormat(path, new TextEncoder().encode(`\ufeff${text}`))).toBe(format);
  });

  it('rejects an unknown format with a hint listing the --format values', () => {
    let err: unknown;
    try {
      detectFormat('notes.md', '\n# A title\n');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).message).toMatch(/^notes\.md:2:1: expected a history: JSON Lines .* found `# A title`$/);
    expect((err as ParseError).hint).toBe('Pass --format with one of: jsonl, edn, porcupine-etcd, porcupine-kv.');
  });
});

describe('readHistory and readOps', () => {
  it('read the same ops, detecting the format', async () => {
    const path = tempFile('both.edn', '[{:type :invoke, :f :read, :process 0} {:type :ok, :f :read, :process 0, :value 3}]');
    const streamed: Op[] = [];
    for await (const op of readOps(path)) streamed.push(op);
    expect(streamed).toEqual(await readHistory(path));
    expect(streamed.map((o) => o.value)).toEqual([null, 3]);
  });

  it('read an empty file as an empty history in every format', async () => {
    for (const format of ['jsonl', 'edn', 'porcupine-etcd', 'porcupine-kv'] as const) {
      expect(await readHistory(tempFile(`empty-${format}`, ''), { format })).toEqual([]);
    }
    expect(await readHistory(tempFile('empty-vector.edn', '[]'))).toEqual([]);
  });

  it('validate as they read unless told not to', async () => {
    const path = tempFile('orphan.jsonl', '{"index":0,"time":0,"process":1,"type":"ok","f":"read","value":1}\n');
    await expect(readHistory(path)).rejects.toBeInstanceOf(HistoryError);
    expect(await readHistory(path, { validate: false })).toHaveLength(1);
  });

  it('report a missing file as a typed error', async () => {
    const err = await readHistory('/nonexistent/history.jsonl').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FencecheckError);
    expect((err as FencecheckError).message).toBe('Cannot read history /nonexistent/history.jsonl: no such file');
    expect((err as FencecheckError).exitCode).toBe(254);
  });

  it('report an unknown --format value as a usage error', async () => {
    const path = tempFile('x.jsonl', '');
    await expect(readHistory(path, { format: 'xml' as HistoryFormat })).rejects.toBeInstanceOf(UsageError);
  });
});

describe('validateHistory', () => {
  let next = 0;
  const op = (process: Op['process'], type: Op['type'], f = 'acquire', time?: number): Op => {
    const index = next++;
    return { index, time: time ?? index * 10, process, type, f, value: null };
  };
  const fresh = (): void => {
    next = 0;
  };

  it('accepts pending ops, nemesis info pairs and lone nemesis infos', () => {
    fresh();
    const h: History = [
      op(0, 'invoke'),
      op('nemesis', 'info', 'start'),
      op(1, 'invoke'),
      op(0, 'ok'),
      op('nemesis', 'info', 'start'),
      op(0, 'invoke', 'release'),
    ];
    expect(validateHistory(h)).toEqual([]);
    expect(validateHistory([])).toEqual([]);
  });

  it.each<[string, () => History, string, number]>([
    ['a completion with no invocation', () => [op(0, 'invoke'), op(1, 'ok')], 'unmatched-completion', 1],
    ['a process invoking twice', () => [op(0, 'invoke'), op(0, 'invoke')], 'double-invoke', 1],
    ['a completion naming another f', () => [op(0, 'invoke', 'acquire'), op(0, 'ok', 'release')], 'f-mismatch', 1],
    ['an index that does not increase', () => [op(0, 'invoke'), { ...op(0, 'ok'), index: 0 }], 'index-order', 0],
  ])('rejects %s', (_name, build, problem, index) => {
    fresh();
    let err: unknown;
    try {
      validateHistory(build(), { file: 'h.jsonl' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HistoryError);
    expect({ problem: (err as HistoryError).problem, index: (err as HistoryError).index }).toEqual({ problem, index });
    expect((err as HistoryError).message).toMatch(new RegExp(`^h\\.jsonl: op ${index} \\(process `));
    expect((err as HistoryError).exitCode).toBe(254);
  });

  it('tolerates an invoke after info and a time going back, with warnings', () => {
    fresh();
    const seen: HistoryWarning[] = [];
    const warnings = validateHistory([op(0, 'invoke'), op(0, 'info'), op(0, 'invoke', 'acquire', 5)], { onWarning: (w) => seen.push(w) });
    expect(warnings.map((w) => [w.kind, w.index])).toEqual([
      ['time-decreased', 2],
      ['invoke-after-info', 2],
    ]);
    expect(seen).toEqual(warnings);
    expect(warnings[0]?.message).toBe("op 2: time 5 is before the previous op's 10 (op 1)");
  });
});
