/**
 * Corrupted ops never silently change a history: a Porcupine etcd log line
 * meant as an op that does not parse as one is an error at its line (not
 * skipped as noise), and a completion that contradicts its invocation
 * (another f; for the model, another key, written value or cas pair) is bad
 * input, in the validator (with the file) and in the pairer (for histories
 * handed to check() directly).
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../core/checkers/linearizability/check.js';
import { createModel } from '../../core/checkers/models/registry.js';
import { checkFiles } from '../../src/check/check-files.js';
import { ParseError } from '../../core/errors.js';
import { looksLikeOpLine } from '../../src/history/etcd-op-line-shape.js';
import type { History, Op } from '../../core/history/op.js';
import { HistoryError } from '../../core/history/validate-history.js';
import { readHistory } from '../../src/history/read-history.js';
import { tempFile } from './temp-files.js';

const GOOD = ['INFO  jepsen.util - 0\t:invoke\t:write\t1', 'INFO  jepsen.util - 0\t:ok\t:write\t1', 'INFO  jepsen.util - 1\t:invoke\t:read\tnil'];

describe('a corrupted Porcupine etcd op line is an error at its line', () => {
  it.each([
    ['a type one letter off', 'INFO  jepsen.util - 1\t:okk\t:read\t2', 23, /an op type/],
    ['a type cut short', 'INFO  jepsen.util - 1\t:invok\t:read\tnil', 23, /an op type/],
    ['a type transposed', 'INFO  jepsen.util - 1\t:fial\t:read\tnil', 23, /an op type/],
    ['a process that is not a number', 'INFO  jepsen.util - x1\t:ok\t:read\t2', 21, /a process/],
    ['a negative process', 'INFO  jepsen.util - -1\t:ok\t:read\t2', 21, /a process/],
    ['a logger name one letter off', 'INFO  jepsen.utiI - 1\t:ok\t:read\t2', 1, /an op line/],
    ['a level corrupted', 'INF0  jepsen.util - 1\t:ok\t:read\t2', 1, /an op line/],
    ['the separator gone', 'INFO  jepsen.util 1\t:ok\t:read\t2', 1, /an op line/],
    ['tabs and shape without the logger', '2024-01-01 1\t:ok\t:read\t2', 1, /an op line/],
    ['every name corrupted, tabs expanded', 'INFO  jepsen.xxxx - 1  :zzz  :read  nil', 1, /an op line/],
    ['an op type with no f', 'INFO  jepsen.util - 1\t:ok', 26, /an operation keyword/],
  ])('%s', async (_name, bad, column, expected) => {
    const path = tempFile(`corrupt-${column}-${bad.length}.log`, [...GOOD, bad, 'INFO  jepsen.util - 2\t:invoke\t:read\tnil'].join('\n') + '\n');
    let err: unknown;
    try {
      await readHistory(path, { format: 'porcupine-etcd' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).line).toBe(4);
    expect((err as ParseError).column).toBe(column);
    expect((err as ParseError).expected).toMatch(expected);
  });

  it("other loggers' lines are still noise", () => {
    for (const noise of [
      'INFO  jepsen.core - Running test',
      'WARN  jepsen.os.debian - :n1 setting up debian',
      'INFO  jepsen.db - :n3 etcd ready',
      'Exception in thread "main"',
      '',
    ]) {
      expect(looksLikeOpLine(noise), noise).toBe(false);
    }
  });
});

const op = (index: number, process: number, type: Op['type'], f: string, value: Op['value']): Op => ({ index, time: index, process, type, f, value });

describe('a completion that contradicts its invocation is bad input', () => {
  const cases: [string, string, History][] = [
    [
      'kv: a get completed on another key',
      'kv',
      [op(0, 0, 'invoke', 'put', ['k', 'x']), op(1, 0, 'ok', 'put', ['k', 'x']), op(2, 1, 'invoke', 'get', ['k', null]), op(3, 1, 'ok', 'get', ['j', 'x'])],
    ],
    ['kv: a put completed on another key', 'kv', [op(0, 0, 'invoke', 'put', ['k', 'x']), op(1, 0, 'ok', 'put', ['j', 'x'])]],
    ['kv: an append that says it wrote something else', 'kv', [op(0, 0, 'invoke', 'append', ['k', 'x']), op(1, 0, 'ok', 'append', ['k', 'y'])]],
    ['kv: an info completion on another key', 'kv', [op(0, 0, 'invoke', 'put', ['k', 'x']), op(1, 0, 'info', 'put', ['j', 'x'])]],
    ['register: a write completed with another value', 'register', [op(0, 0, 'invoke', 'write', 1), op(1, 0, 'ok', 'write', 2)]],
    ['cas-register: a cas completed with another pair', 'cas-register', [op(0, 0, 'invoke', 'cas', [1, 2]), op(1, 0, 'ok', 'cas', [1, 3])]],
    ['etcd: a write completed with a map in other values', 'etcd', [op(0, 0, 'invoke', 'write', { a: 1 }), op(1, 0, 'ok', 'write', { a: 2 })]],
    ['any model: another f', 'register', [op(0, 0, 'invoke', 'write', 1), op(1, 0, 'ok', 'read', 1)]],
  ];

  it.each(cases)('%s: refused by check() (the pairer)', (_name, model, history) => {
    expect(() => check(createModel(model as 'kv'), history)).toThrow(HistoryError);
  });

  it.each(cases)('%s: refused when read from a file, naming it (254)', async (name, model, history) => {
    const path = tempFile(`contra-${name.replace(/\W+/g, '-')}.jsonl`, history.map((o) => JSON.stringify(o)).join('\n') + '\n');
    const [r] = await checkFiles([path], createModel(model as 'kv'));
    expect(r!.result).toBeUndefined();
    expect(r!.error).toBeInstanceOf(HistoryError);
    expect(r!.error!.exitCode).toBe(254);
    expect(r!.error!.message).toContain(path);
  });

  it('the same in Porcupine kv format: a get of k completed as j', async () => {
    const path = tempFile('contra.txt', '{:process 0, :type :invoke, :f :get, :key "k", :value nil}\n{:process 0, :type :ok, :f :get, :key "j", :value ""}\n');
    const [r] = await checkFiles([path], createModel('kv'));
    expect(r!.error?.message).toMatch(/contradicts its invocation, op 0: it names key "j", the invocation key "k"/);
  });

  it('echoes that agree are fine: a key-order-free map, a nil completion, an equal pair', () => {
    const ok: [string, History][] = [
      [
        'register',
        [
          op(0, 0, 'invoke', 'write', { a: 1, b: 2 }),
          op(1, 0, 'ok', 'write', { b: 2, a: 1 }),
          op(2, 1, 'invoke', 'read', null),
          op(3, 1, 'ok', 'read', { a: 1, b: 2 }),
        ],
      ],
      ['cas-register', [op(0, 0, 'invoke', 'write', 1), op(1, 0, 'ok', 'write', null), op(2, 0, 'invoke', 'cas', [1, 2]), op(3, 0, 'ok', 'cas', [1, 2])]],
      ['kv', [op(0, 0, 'invoke', 'put', ['k', 'x']), op(1, 0, 'ok', 'put', null), op(2, 0, 'invoke', 'get', ['k', null]), op(3, 0, 'ok', 'get', ['k', 'x'])]],
    ];
    for (const [model, history] of ok) expect(check(createModel(model as 'kv'), history).valid, model).toBe(true);
  });
});
