/**
 * `fencecheck check` as a user meets it: verdict lines, witnesses, JSON, and
 * the exit codes 0 / 1 / 2 / 254, on small histories written here.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';
import { MAIN, runCli } from './run-cli.js';

const dir = madeTempDir('fencecheck-cli-');
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
    expect(runCli(['check', good, '--model', 'etcd', '--timeout-ms', '0']).stderr).toContain(
      'Expected `--timeout-ms` to be an integer from 1 to 86400000 (ms), got `0`',
    );
  });

  it('says which model a history was meant for instead of calling it invalid', () => {
    const r = runCli(['check', good, '--model', 'mutex']);
    expect(r.code).toBe(254);
    expect(r.stdout).toContain('model mutex does not know');
  });

  it('gives an empty history no verdict: 254 naming the format', () => {
    const r = runCli(['check', write('empty.jsonl', ''), '--model', 'mutex']);
    expect(r.code).toBe(254);
    expect(r.stdout).toMatch(/empty\.jsonl: read as jsonl, it has no operations/);
  });

  it('refuses values that do not fit the model, at file:line:column (no verdict)', () => {
    const cas = write('cas5.jsonl', [op(0, 0, 'invoke', 'cas', 5), op(1, 0, 'ok', 'cas', 5)]);
    const r = runCli(['check', cas, '--model', 'cas-register']);
    expect(r.code).toBe(254);
    expect(r.stdout).toContain('cas5.jsonl:1:67: expected `value` to be a pair [from, to] (invoke cas), found 5');
    const kv = write('kv9.jsonl', [
      op(0, 0, 'invoke', 'put', ['k', 'x']),
      op(1, 0, 'ok', 'put', ['k', 'x']),
      op(2, 0, 'invoke', 'get', ['k', null]),
      op(3, 0, 'ok', 'get', 9),
    ]);
    const k = runCli(['check', kv, '--model', 'kv']);
    expect(k.code).toBe(254);
    expect(k.stdout).toMatch(/kv9\.jsonl:4:\d+: expected `value` to be a pair \[key, value\] .*\(ok get\), found 9/);
  });

  it('refuses numbers a double cannot hold and nesting past 1000, in the file and in --init', () => {
    const line = (value: string, i: number, type: string) => `{"index":${i},"time":${i},"process":0,"type":"${type}","f":"write","value":${value}}`;
    for (const [name, value, message] of [
      ['huge.jsonl', '1e400', 'a number within the range of a double'],
      ['big.jsonl', '9007199254740993', 'an integer within ±(2^53 - 1)'],
      ['deep.jsonl', `${'['.repeat(5000)}1${']'.repeat(5000)}`, 'values nested at most 1000 deep'],
    ] as const) {
      const r = runCli(['check', write(name, `${line(value, 0, 'invoke')}\n${line(value, 1, 'ok')}\n`), '--model', 'register']);
      expect(r.code, name).toBe(254);
      expect(r.stdout, name).toContain(message);
    }
    const init = runCli(['check', good, '--model', 'register', '--init', `${'['.repeat(5000)}${']'.repeat(5000)}`]);
    expect(init.code).toBe(254);
    expect(init.stderr).toContain('Expected `--init` to be values nested at most 1000 deep');
  });

  it('refuses a file in another format than the one forced, and a FIFO, without blocking', () => {
    const etcdForced = runCli(['check', good, '--model', 'register', '--format', 'porcupine-etcd']);
    expect(etcdForced.code).toBe(254);
    expect(etcdForced.stdout).toContain('expected mostly jepsen.util op lines');
    expect(etcdForced.stdout).toContain('read as porcupine-etcd (as --format said)');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const r = runCli(['check', fifo, '--model', 'register', '--format', 'jsonl'], { timeout: 10_000 });
    expect(r.code).toBe(254);
    expect(r.stdout).toContain('it is a FIFO (named pipe), not a regular file');
  });

  it('bounds the line length (--max-line-mb) and the size (--max-history-mb)', () => {
    const long = write('long.jsonl', `{"index":0,"time":0,"process":0,"type":"invoke","f":"write","value":"${'x'.repeat(1_200_000)}"}\n`);
    const r = runCli(['check', long, '--model', 'register', '--max-line-mb', '1']);
    expect(r.code).toBe(254);
    expect(r.stdout).toContain('long.jsonl:1:1048577: expected a line of at most 1 MiB characters, found a longer line');
    const big = runCli(['check', long, '--model', 'register', '--max-history-mb', '1']);
    expect(big.stdout).toContain('it is larger than 1 MiB');
  });

  it('skips a cut last line with --tolerate-truncated-tail, the flag its error names', () => {
    const cut = write('cut.jsonl', `${JSON.stringify(op(0, 0, 'invoke', 'write', 1))}\n${JSON.stringify(op(1, 0, 'ok', 'write', 1))}\n{"index":2,"ti`);
    expect(runCli(['check', cut, '--model', 'register']).stdout).toContain('pass --tolerate-truncated-tail');
    const r = runCli(['check', cut, '--model', 'register', '--tolerate-truncated-tail']);
    expect(r.code).toBe(0);
  });

  it('follows symbolic links in a directory and reports a loop as a loop', () => {
    const d = madeTempDir('fencecheck-links-');
    mkdirSync(join(d, 'sub'));
    symlinkSync(good, join(d, 'sub', 'linked.jsonl'));
    symlinkSync('loop.jsonl', join(d, 'loop.jsonl'));
    symlinkSync(d, join(d, 'sub', 'back'));
    const r = runCli(['check', d, '--model', 'cas-register']);
    expect(r.code).toBe(254);
    expect(r.stdout).toMatch(/^valid\s+.*sub\/linked\.jsonl/m);
    expect(r.stdout).toContain('loop.jsonl: a loop of symbolic links');
    expect(r.stdout).toContain('2 files: 1 valid, 0 invalid, 0 unknown, 1 unreadable');
    const top = runCli(['check', join(d, 'loop.jsonl'), '--model', 'cas-register']);
    expect(top.stderr).toContain('which is a loop of symbolic links');
  });

  it("prints a history's control characters escaped, never raw", () => {
    const esc = write('esc.jsonl', [
      op(0, 0, 'invoke', 'write', '\u001b[31mRED\u009b'),
      op(1, 0, 'ok', 'write', '\u001b[31mRED\u009b'),
      op(2, 1, 'invoke', 'read', null),
      op(3, 1, 'ok', 'read', 'x'),
    ]);
    for (const args of [[], ['--json']]) {
      const r = runCli(['check', esc, '--model', 'register', ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toMatch(/[\u001b\u009b]/);
      expect(r.stdout).toContain('\\u001b[31mRED\\u009b');
    }
  });

  it('re-checks a run directory and prints JSON with --json', () => {
    const run = join(madeTempDir('fencecheck-rundir-'), 'run');
    cpSync(SAMPLE_RUN_DIR, run, { recursive: true });
    const r = runCli(['check', run, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { runDir: string; valid: unknown; checkers: unknown[] }[];
    expect(doc[0]!.runDir).toBe(run);
    expect(doc[0]!.valid).toBe(false);
    expect(doc[0]!.checkers.length).toBeGreaterThan(0);
  });

  it('ends quietly with 141 when the reader closes the pipe early (| head)', () => {
    const many = madeTempDir('fencecheck-many-');
    for (let i = 0; i < 300; i++)
      writeFileSync(
        join(many, `h${String(i).padStart(3, '0')}.jsonl`),
        [op(0, 0, 'invoke', 'write', 2), op(1, 0, 'ok', 'write', 2)].map((l) => JSON.stringify(l)).join('\n') + '\n',
      );
    const out = execFileSync(
      'bash',
      ['-c', `node ${MAIN} check ${many} --model register 2>"${many}/err" | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"; cat "${many}/err"`],
      { encoding: 'utf8' },
    );
    expect(out).toBe('141\n');
  });
});
