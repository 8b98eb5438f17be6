/**
 * One table of malformed inputs for every format: each row is read as a
 * history file (or, for `edn-value`, as one EDN value) and must fail with a
 * ParseError at exactly this line:column, with this expected and found text.
 */
import { describe, it } from 'vitest';
import { parseEdn } from '../../src/history/edn.js';
import { readHistory, type HistoryFormat } from '../../src/history/read-history.js';
import { expectParseError, tempFile } from './temp-files.js';

const OK = '{"index":0,"time":10,"process":0,"type":"invoke","f":"acquire","value":null}';

type Row = [format: HistoryFormat | 'edn-value', name: string, text: string, line: number, column: number, expected: string, found: string];

const ROWS: Row[] = [
  ['edn-value', 'unterminated string', '{:a "abc', 1, 5, 'a closing `"` for this string', 'end of file'],
  ['edn-value', 'unterminated string over lines', '[1\n  "ab\ncd', 2, 3, 'a closing `"` for this string', 'end of file'],
  ['edn-value', 'bad keyword (bare colon)', '{: 1}', 1, 2, 'a keyword name after `:`', 'whitespace'],
  ['edn-value', 'bad keyword (auto-resolved)', '[::foo]', 1, 2, 'a keyword name after `:`', '`:`'],
  ['edn-value', 'bad keyword at end of file', '[1 :', 1, 4, 'a keyword name after `:`', 'end of file'],
  ['edn-value', 'unbalanced: wrong closer', '[1 2}', 1, 5, '`]` to close the vector opened at 1:1', '`}`'],
  ['edn-value', 'unbalanced: map closed by ]', '{:a 1\n :b 2]', 2, 6, '`}` to close the map opened at 1:1', '`]`'],
  ['edn-value', 'unbalanced: unclosed', '{:a [1 2', 1, 9, '`]` to close the vector opened at 1:5', 'end of file'],
  ['edn-value', 'unbalanced: stray closer', ']', 1, 1, 'a value', '`]`'],
  ['edn-value', 'map with a key and no value', '{:a 1 :b}', 1, 9, 'a value for the key `:b`', '`}`'],
  ['edn-value', 'bad number', '[12abc]', 1, 2, 'a number', '`12abc`'],
  ['edn-value', 'bad escape', '"a\\qb"', 1, 3, 'an escape: \\" \\\\ \\n \\t \\r \\b \\f or \\uXXXX', '`\\q`'],
  ['edn-value', 'bad unicode escape', '"\\u12G4"', 1, 2, 'four hex digits after `\\u`', '`\\u12G4`'],
  ['edn-value', 'regex literal', '#"x"', 1, 1, 'a tag, `{` or `_` after `#`', '`"`'],
  ['edn-value', 'tag with no value', '#foo', 1, 5, 'a value after the tag `#foo`', 'end of file'],
  ['edn', 'missing process', '[{:type :invoke, :f :read}]', 1, 2, '`:process` to be a non-negative integer or nemesis', 'no `process` field'],
  ['edn', 'unknown type value', '[{:process 0,\n  :type :done, :f :read}]', 2, 9, '`:type` to be one of invoke, ok, fail, info', '"done"'],
  ['edn', 'wrong field type', '[{:process "p1", :type :ok, :f :read}]', 1, 12, '`:process` to be a non-negative integer or nemesis', '"p1"'],
  ['edn', 'not a map', '[{:process 0, :type :invoke, :f :read} [1 2]]', 1, 40, 'an op map like {:type :invoke, :f :read, :process 0}', '[1,2]'],
  ['edn', 'unbalanced history vector', '[{:process 0, :type :invoke, :f :read} }', 1, 40, '`]` to close the vector opened at 1:1', '`}`'],
  ['jsonl', 'bad JSON line', `${OK}\n{"index":0,"time":1,,}\n`, 2, 21, 'valid JSON (Expected double-quoted property name)', '`,`'],
  ['jsonl', 'unterminated JSON string', `${OK}\n{"index":0,"f":"acq}\n`, 2, 21, 'valid JSON (Unterminated string)', 'end of line'],
  ['jsonl', 'not an object', `${OK}\n[1,2]\n`, 2, 1, 'a JSON object (one op per line)', 'an array'],
  ['jsonl', 'wrong type: index', '{"index":"0","time":1,"process":0,"type":"invoke","f":"a"}\n', 1, 10, '`index` to be a non-negative integer', '"0"'],
  ['jsonl', 'wrong type: time', '{"index":0, "time": -5,"process":0,"type":"invoke","f":"a"}\n', 1, 21, '`time` to be a non-negative number', '-5'],
  [
    'jsonl',
    'wrong type: process',
    '{"index":0,"time":1,"process":1.5,"type":"invoke","f":"a"}\n',
    1,
    31,
    '`process` to be a non-negative integer or nemesis',
    '1.5',
  ],
  ['jsonl', 'wrong type: f', '{"index":0,"time":1,"process":0,"type":"invoke","f":7}\n', 1, 53, '`f` to be a non-empty string', '7'],
  [
    'jsonl',
    'unknown type value',
    `${OK}\n{"index":1,"time":1,"process":0,"type":"done","f":"a"}\n`,
    2,
    40,
    '`type` to be one of invoke, ok, fail, info',
    '"done"',
  ],
  [
    'jsonl',
    'missing process',
    '{"index":0,"time":1,"type":"invoke","f":"a"}\n',
    1,
    1,
    '`process` to be a non-negative integer or nemesis',
    'no `process` field',
  ],
  ['jsonl', 'missing index', '{"time":1,"process":0,"type":"invoke","f":"a"}\n', 1, 1, '`index` to be a non-negative integer', 'no `index` field'],
  [
    'jsonl',
    'a key spelled inside a string value',
    '{"note":"\\"type\\": 1","index":0,"time":1,"process":0,"f":"a","type":3}\n',
    1,
    69,
    '`type` to be one of invoke, ok, fail, info',
    '3',
  ],
  ['porcupine-kv', 'missing key', '{:process 0, :type :invoke, :f :put, :value "a"}\n', 1, 1, '`:key` to be a string', 'no `key` field'],
  ['porcupine-kv', 'unknown f', '{:process 0, :type :invoke, :f :cas, :key "1", :value "a"}\n', 1, 32, '`:f` to be one of get, put, append', '"cas"'],
  [
    'porcupine-kv',
    'missing process',
    '{:type :invoke, :f :get, :key "1", :value nil}\n',
    1,
    1,
    '`:process` to be a non-negative integer or nemesis',
    'no `process` field',
  ],
  ['porcupine-etcd', 'bad value', 'INFO  jepsen.util - 1\t:invoke\t:cas\t[3 "x]\n', 1, 39, 'a closing `"` for this string', 'end of file'],
  [
    'porcupine-etcd',
    'f not a keyword',
    'INFO  jepsen.util - 1\t:invoke\t:read\tnil\nINFO  jepsen.util - 1\t:ok\tread\t3\n',
    2,
    27,
    'an operation keyword such as :read, :write or :cas',
    '`read`',
  ],
  ['porcupine-etcd', 'no f', 'INFO  jepsen.util - 1\t:invoke  \n', 1, 30, 'an operation keyword such as :read, :write or :cas', 'end of line'],
];

describe('malformed input', () => {
  it.each(ROWS)('%s: %s', async (format, _name, text, line, column, expected, found) => {
    if (format === 'edn-value') {
      await expectParseError(() => parseEdn(text, { file: 'h.edn', line: 1, column: 1 }), 'h.edn', { line, column, expected, found });
      return;
    }
    const path = tempFile(`bad.${format}`, text);
    await expectParseError(() => readHistory(path, { format }), path, { line, column, expected, found });
  });
});
