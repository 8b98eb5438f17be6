/**
 * `fencecheck check` as a user meets it: verdict lines, witnesses, JSON, and
 * the exit codes 0 / 1 / 2 / 254, on small histories written here.
 */
import { writeFileSync } from 'node:fs';
import { makeTempDir } from '../support/temp-dir.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = makeTempDir('fencecheck-cli-');
const write = (name: string, lines: object[] | string): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof lines === 'string' ? lines : lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
};
const op = (index: number, process: number, type: string, f: string, value: unknown) => ({ index, time: index * 10, process, type, f, value });

// write 1, then a read of 2 that starts after the write finished: not linearizable.
const bad = write('bad.jsonl', [op(0, 0, 'invoke', 'write', 1), op(1, 0, 'ok', 'write', 1), op(2, 1, 'invoke', 'read', null), op(3, 1, 'ok', 'read', 2)]);
// The read overlaps the write of 2: fine.
const good = write('good.jsonl', [op(0, 0, 'invoke', 'write', 2), op(1, 1, 'invoke', 'read', null), op(2, 1, 'ok', 'read', 2), op(3, 0, 'ok', 'write', 2)]);

describe('fencecheck check', () => {
  it('prints valid and exits 0 on a linearizable history', () => {
    const r = runCli(['check', good, '--model', 'cas-register']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^valid\s+.*good\.jsonl/m);
  });

  it('prints the witness and exits 1 on a violation', () => {
    const r = runCli(['check', bad, '--model', 'cas-register']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/INVALID\s+.*bad\.jsonl/);
    expect(r.stdout).toContain('cannot linearize: process 1 read 2, ok');
    expect(r.stdout).toContain('why: read 2, but the register holds 1');
  });

  it('exits with the worst outcome over several files and summarises', () => {
    const r = runCli(['check', good, bad, '--model', 'cas-register']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('2 files: 1 valid, 1 invalid, 0 unknown, 0 unreadable');
  });

  it('honours --init: the same read of nil is fine from nil and a violation from 0 under etcd', () => {
    const h = write('init.jsonl', [op(0, 0, 'invoke', 'read', null), op(1, 0, 'ok', 'read', null)]);
    expect(runCli(['check', h, '--model', 'etcd']).code).toBe(0);
    expect(runCli(['check', h, '--model', 'etcd', '--init', '0']).code).toBe(1);
  });

  it('emits JSON with the witness for machines', () => {
    const r = runCli(['check', bad, '--model', 'cas-register', '--json']);
    const parsed = JSON.parse(r.stdout) as { valid: boolean; witness: { op: { text: string }; state: string } }[];
    expect(parsed[0]!.valid).toBe(false);
    expect(parsed[0]!.witness.state).toBe('register = 1');
  });

  it('accepts a directory and checks every history in it', () => {
    const r = runCli(['check', dir, '--model', 'cas-register']);
    expect(r.stdout).toMatch(/\d+ files: /);
  });

  it('rejects bad input with file:line:column, exit 254 and no stack trace', () => {
    const broken = write('broken.jsonl', '{"index":0,"time":0,"process":0,"type":"invoke","f":"read","value":null}\n{"index":1,\n');
    const r = runCli(['check', broken, '--model', 'cas-register']);
    expect(r.code).toBe(254);
    expect(r.stdout + r.stderr).toMatch(/broken\.jsonl:2:\d+/);
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects bad arguments with exit 254', () => {
    expect(runCli(['check', good, '--model', 'nope']).code).toBe(254);
    expect(runCli(['check', good, '--model', 'mutex', '--init', '0']).stderr).toContain('Expected no `--init` with --model mutex');
    expect(runCli(['check', join(dir, 'missing.jsonl'), '--model', 'mutex']).code).toBe(254);
    expect(runCli(['check', good, '--model', 'etcd', '--timeout-ms', '0']).stderr).toContain('Expected `--timeout-ms` to be a positive integer, got `0`');
  });

  it('says which model a history was meant for instead of calling it invalid', () => {
    const r = runCli(['check', good, '--model', 'mutex']);
    expect(r.code).toBe(254);
    expect(r.stdout).toContain('model mutex does not know');
  });

  it('treats an empty history as valid', () => {
    expect(runCli(['check', write('empty.jsonl', ''), '--model', 'mutex']).code).toBe(0);
  });
});
