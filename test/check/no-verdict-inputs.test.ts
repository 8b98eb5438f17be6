/**
 * Inputs that must get no verdict of valid, or no crash: a history where
 * nothing completed (unknown, with why, also in `check DIR`), EDN chains of
 * `#_`, tags and `^meta` (a 254 at the position; a directory check goes on to
 * later files), a history whose operations would pass --max-history-mb in
 * memory (refused while read) or whose file is larger (refused by its size,
 * before a byte is read), and --threads past the cores (capped, and said).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModel } from '../../core/checkers/models/registry.js';
import { checkFiles } from '../../src/check/check-files.js';
import { OPERATION_BYTES, valueBytes } from '../../src/check/operations-memory.js';
import { ParseError } from '../../core/errors.js';
import { MIB } from '../../core/history/read-limits.js';
import { MAIN, runCli } from '../cli/run-cli.js';
import { madeTempDir } from '../support/temp-dirs.js';

const line = (index: number, process: number, type: string, f: string, value: unknown) => JSON.stringify({ index, time: index, process, type, f, value });
const jsonl = (...lines: string[]) => lines.join('\n') + '\n';

describe('nothing observed: no verdict of valid', () => {
  const dir = madeTempDir('fencecheck-blind-');
  const cases: [string, string, string][] = [
    ['only pending invokes', 'register', jsonl(line(0, 0, 'invoke', 'write', 1), line(1, 1, 'invoke', 'read', null))],
    [
      'only info completions',
      'cas-register',
      jsonl(line(0, 0, 'invoke', 'cas', [1, 2]), line(1, 0, 'info', 'cas', null), line(2, 1, 'invoke', 'write', 3), line(3, 1, 'info', 'write', null)),
    ],
    ['every op failed', 'register', jsonl(line(0, 0, 'invoke', 'write', 1), line(1, 0, 'fail', 'write', null))],
    ['kv: pending puts and gets', 'kv', jsonl(line(0, 0, 'invoke', 'put', ['k', 'x']), line(1, 1, 'invoke', 'get', ['k', null]))],
    ['mutex: a pending acquire', 'mutex', jsonl(line(0, 0, 'invoke', 'acquire', null))],
  ];
  it.each(cases)('%s: unknown, saying nothing was observed', async (name, model, text) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.jsonl`);
    writeFileSync(file, text);
    const [r] = await checkFiles([file], createModel(model as 'kv'));
    expect(r!.result?.valid).toBe('unknown');
    expect(r!.result?.reason).toMatch(/^nothing was observed/);
  });

  it('one ok completion is enough to be checked', async () => {
    const file = join(dir, 'one-ok.jsonl');
    writeFileSync(file, jsonl(line(0, 0, 'invoke', 'write', 1), line(1, 0, 'ok', 'write', 1), line(2, 1, 'invoke', 'read', null)));
    const [r] = await checkFiles([file], createModel('register'));
    expect(r!.result?.valid).toBe(true);
  });

  it('check DIR: the file reads unknown with why, and the directory exits 2', () => {
    const d = madeTempDir('fencecheck-blind-dir-');
    writeFileSync(join(d, 'a.jsonl'), cases[0]![2]);
    const r = spawnSync(process.execPath, [MAIN, 'check', d, '--model', 'register'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/^unknown {2}.*a\.jsonl/m);
    expect(r.stdout).toMatch(/nothing was observed: all 2 operations are pending|nothing was observed: its one operation is pending/);
  });
});

describe('EDN chains of #_, tags and ^meta are bounded like nesting', () => {
  const chains: [string, string][] = [
    ['#_', '#_ '],
    ['tags', '#t '],
    ['^meta', '^:m '],
    ['^{map} meta', '^{:a 1} '],
    ['mixed', '#_ 1 #t ^:m '],
  ];
  it.each(chains)('a chain of %s: a 254 at its position, never a stack overflow', async (_name, link) => {
    const dir = madeTempDir('fencecheck-edn-chain-');
    const file = join(dir, 'chain.edn');
    writeFileSync(file, `[{:process 0 :type :invoke :f :read :value ${link.repeat(100_000)}1 2}]\n`);
    const [r] = await checkFiles([file], createModel('register'));
    expect(r!.error).toBeInstanceOf(ParseError);
    expect((r!.error as ParseError).expected).toMatch(/nesting at most 1000 deep/);
    expect((r!.error as ParseError).line).toBe(1);
  });

  it('a chain within the bound still reads', async () => {
    const dir = madeTempDir('fencecheck-edn-chain-');
    const file = join(dir, 'ok.edn');
    // A tag is part of the value (`#t 1` is not `1`), metadata and discards are not: the completion echoes the write.
    writeFileSync(
      file,
      `[{:process 0 :type :invoke :f :write :value ${'#t '.repeat(200)}1}\n{:process 0 :type :ok :f :write :value ${'#t ^:m #_ x '.repeat(200)}1}]\n`,
    );
    const [r] = await checkFiles([file], createModel('register'));
    expect(r!.error).toBeUndefined();
  });

  it('a directory check goes on to the files after one', () => {
    const dir = madeTempDir('fencecheck-edn-dir-');
    writeFileSync(join(dir, 'a.edn'), `[{:process 0 :type :invoke :f :read :value ${'#_ '.repeat(100_000)}1}]\n`);
    writeFileSync(join(dir, 'b.edn'), '[{:process 0 :type :invoke :f :write :value 1}\n{:process 0 :type :ok :f :write :value 1}]\n');
    const r = runCli(['check', dir, '--model', 'register']);
    expect(r.code).toBe(254);
    expect(r.stdout).toMatch(/^error {4}.*a\.edn/m);
    expect(r.stdout).toMatch(/^valid {4}.*b\.edn/m);
  });
});

describe('memory: refused before the documented bound is passed', () => {
  it('the estimate of a value follows its shape (arrays of small arrays cost far more than their text)', () => {
    expect(valueBytes(null)).toBe(0);
    expect(valueBytes(5)).toBe(0);
    expect(valueBytes(1.5)).toBe(16);
    expect(valueBytes([[0], [0]])).toBeGreaterThan(15 * '[[0],[0]]'.length);
    expect(valueBytes({ a: 'xy' })).toBeGreaterThan(valueBytes('xy'));
  });

  it('a history whose operations would pass --max-history-mb in memory is refused while read, naming the flag', async () => {
    const dir = madeTempDir('fencecheck-mem-');
    const file = join(dir, 'arrays.jsonl');
    const value = Array.from({ length: 40 }, () => [0]);
    const lines: string[] = [];
    for (let i = 0; i < 4000; i++) lines.push(line(2 * i, i % 4, 'invoke', 'write', value), line(2 * i + 1, i % 4, 'ok', 'write', value));
    writeFileSync(file, jsonl(...lines));
    // 4000 operations of two such values each: some 20 MB estimated, from a 2 MB file.
    const perOp = OPERATION_BYTES + 2 * valueBytes(value);
    expect(perOp * 4000).toBeGreaterThan(8 * MIB);
    const [r] = await checkFiles([file], createModel('register'), { limits: { maxHistoryBytes: 8 * MIB } });
    expect(r!.error?.code).toBe('too-large');
    expect(r!.error?.exitCode).toBe(254);
    expect(r!.error?.message).toMatch(/its operations would take more than 8 MiB of memory/);
    expect(r!.error?.hint).toMatch(/--max-history-mb.*docs\/checker\.md, "Limits"/);
  });

  it('a file larger than --max-history-mb is refused by its size, before a byte is read (a sparse 64 GiB file)', () => {
    const dir = madeTempDir('fencecheck-mem-');
    const file = join(dir, 'huge.jsonl');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 64 * 1024 * MIB);
    closeSync(fd);
    const r = runCli(['check', file, '--model', 'register', '--max-history-mb', '1'], { timeout: 20_000 });
    expect(r.code).toBe(254);
    expect(r.stdout).toMatch(/it is larger than 1 MiB/);
    expect(r.stdout).toMatch(/Hint: Raise the limit with --max-history-mb.*docs\/checker\.md, "Limits"/);
  });
});

describe('--threads is capped at the cores and the files, and says so', () => {
  it('64 threads on two files run on at most the cores, with a note', () => {
    const dir = madeTempDir('fencecheck-threads-');
    const text = jsonl(line(0, 0, 'invoke', 'write', 1), line(1, 0, 'ok', 'write', 1));
    writeFileSync(join(dir, 'a.jsonl'), text);
    writeFileSync(join(dir, 'b.jsonl'), text);
    const r = spawnSync(process.execPath, [MAIN, 'check', dir, '--model', 'register', '--threads', '64'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const used = Math.min(availableParallelism(), 2);
    expect(r.stderr).toMatch(new RegExp(`note: --threads 64 capped at ${used}: `));
  });
});
