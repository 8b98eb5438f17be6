/**
 * Invalid UTF-8 is refused in every format, at its line and column, and a
 * valid multi-byte character cut by a chunk boundary still reads: a lenient
 * decoder read every bad sequence as the same U+FFFD, so a write of 0xff and
 * a read of 0xfe compared equal and an invalid history read as valid.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createModel } from '../../core/checkers/models/registry.js';
import { checkFiles } from '../../src/check/check-files.js';
import { ParseError } from '../../core/errors.js';
import { Utf8Scanner } from '../../src/history/invalid-utf8.js';
import { readChunks } from '../../src/history/read-chunks.js';
import { testSeed } from '../support/seed.js';
import { madeTempDir } from '../support/temp-dirs.js';

// Every class of sequence the WHATWG decoder refuses: stray continuation, bytes never in UTF-8, overlong forms,
// surrogates, past U+10FFFF, a lead byte followed by too few continuations, a sequence cut by the end of the file.
const BAD: [string, number[]][] = [
  ['0xff', [0xff]],
  ['0xfe', [0xfe]],
  ['a stray continuation byte', [0x80]],
  ['an overlong slash (c0 af)', [0xc0, 0xaf]],
  ['an overlong three-byte form (e0 80 af)', [0xe0, 0x80, 0xaf]],
  ['a UTF-16 surrogate (ed a0 80)', [0xed, 0xa0, 0x80]],
  ['past U+10FFFF (f4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
  ['a lead byte then ASCII (c3 41)', [0xc3, 0x41]],
  ['f5, never a lead byte', [0xf5, 0x80, 0x80, 0x80]],
];

const formats = {
  jsonl: (v: string) =>
    [
      `{"index":0,"time":0,"process":0,"type":"invoke","f":"write","value":"${v}"}`,
      `{"index":1,"time":1,"process":0,"type":"ok","f":"write","value":"${v}"}`,
    ].join('\n') + '\n',
  edn: (v: string) => `[{:process 0 :type :invoke :f :write :value "${v}"}\n{:process 0 :type :ok :f :write :value "${v}"}]\n`,
  'porcupine-kv': (v: string) => `{:process 0, :type :invoke, :f :put, :key "k", :value "${v}"}\n{:process 0, :type :ok, :f :put, :key "k", :value "${v}"}\n`,
  'porcupine-etcd': (v: string) => `INFO  jepsen.util - 0\t:invoke\t:write\t1\nINFO  jepsen.util - 0\t:ok\t:write\t1 ${v}\n`,
} as const;
const MODEL = { jsonl: 'register', edn: 'register', 'porcupine-kv': 'kv', 'porcupine-etcd': 'etcd' } as const;
const MARK = 'MARK';

function withBytes(text: string, bytes: number[]): Buffer {
  const at = text.indexOf(MARK);
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bytes), Buffer.from(text.slice(at + MARK.length))]);
}

describe('invalid UTF-8 is refused in every format, at its position', () => {
  const dir = madeTempDir('fencecheck-utf8-');
  for (const [format, render] of Object.entries(formats) as [keyof typeof formats, (v: string) => string][]) {
    it.each(BAD)(`${format}: %s`, async (_name, bytes) => {
      const text = render(MARK);
      const file = join(dir, `${format}-${bytes.join('-')}`);
      writeFileSync(file, withBytes(text, bytes));
      const [r] = await checkFiles([file], createModel(MODEL[format]), { format });
      expect(r!.result).toBeUndefined();
      const err = r!.error as ParseError;
      expect(err).toBeInstanceOf(ParseError);
      expect(err.exitCode).toBe(254);
      expect(err.expected).toBe('UTF-8 text');
      const before = text.slice(0, text.indexOf(MARK));
      expect(err.line).toBe(before.split('\n').length);
      expect(err.column).toBe(before.length - before.lastIndexOf('\n'));
      expect(err.hint).toMatch(/must be UTF-8/);
    });
  }

  it('a multi-byte sequence cut by the end of the file is refused too', async () => {
    const file = join(dir, 'cut.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from(formats.jsonl('x')), Buffer.from([0xe2, 0x82])]));
    const [r] = await checkFiles([file], createModel('register'));
    expect((r!.error as ParseError).expected).toBe('UTF-8 text');
    expect((r!.error as ParseError).line).toBe(3);
  });
});

describe('valid UTF-8 split across chunks reads whole', () => {
  it('every chunk size cuts é, € and 😀 somewhere, and the text comes out the same', () => {
    const dir = madeTempDir('fencecheck-utf8-chunks-');
    const text = '\ufeffé€😀 line\nsecond é€😀\n';
    const file = join(dir, 'multi.txt');
    writeFileSync(file, text);
    for (let chunk = 1; chunk <= 12; chunk++) expect([...readChunks(file, chunk)].join('')).toBe(text.slice(1));
  });
});

describe('Utf8Scanner (the locator) agrees with the strict decoder', () => {
  it('on random bytes: a problem exactly when TextDecoder with fatal: true throws', () => {
    const seed = testSeed('utf8 scanner vs TextDecoder', 'test/history/strict-utf8.test.ts');
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0xff }),
      fc.constantFrom(0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0x80, 0xbf, 0x9f, 0x90, 0x8f),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), fc.nat(24), (bytes, cut) => {
        const buf = Uint8Array.from(bytes);
        let strictFails = false;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(buf);
        } catch {
          strictFails = true;
        }
        // Fed in two pieces, as chunks are.
        const scanner = new Utf8Scanner();
        const at = Math.min(cut, buf.length);
        const problem = scanner.push(buf.subarray(0, at)) ?? scanner.push(buf.subarray(at)) ?? scanner.end();
        expect(problem !== null).toBe(strictFails);
      }),
      { seed, numRuns: 5000 },
    );
  });
});
