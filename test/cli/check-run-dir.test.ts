/**
 * `fencecheck check RUN_DIR` and `fencecheck report RUN_DIR` on run
 * directories: a bad test.json or results.json is exit 254 naming the file and
 * the field; a good one is re-checked and gets its outcome and evidence.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_MUTEX_RUN_DIR, SAMPLE_OPTIONS, SAMPLE_RUN_DIR, simulatedRunFiles } from '../fixtures/make-sample-run.js';
import { runCli } from './run-cli.js';

const parent = madeTempDir('fencecheck-cli-rundir-');

function sampleCopy(name: string): string {
  const dir = join(parent, name);
  cpSync(SAMPLE_RUN_DIR, dir, { recursive: true });
  return dir;
}

describe('fencecheck check RUN_DIR', () => {
  it('a test.json of {} exits 254 naming the file and the missing field', () => {
    const dir = sampleCopy('empty-test');
    writeFileSync(join(dir, 'test.json'), '{}\n');
    for (const command of ['check', 'report']) {
      const r = runCli([command, dir]);
      expect(r.code).toBe(254);
      expect(r.stderr).toContain(`${join(dir, 'test.json')}: expected \`name\` to be the name of the test, found nothing (the field is missing)`);
    }
  });

  it('a results.json with a wrong type exits 254 from report naming the field', () => {
    const dir = sampleCopy('bad-results');
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ valid: true, checkers: 'all fine' }));
    const r = runCli(['report', dir]);
    expect(r.code).toBe(254);
    expect(r.stderr).toContain(`${join(dir, 'results.json')}: expected \`checkers\` to be an array, found "all fine"`);
  });

  it('re-checks the run and writes its outcome and evidence', () => {
    const dir = sampleCopy('recheck');
    const r = runCli(['check', dir]);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    // The sample run lost an update under paused holders: unsafe, and its pauses struck.
    expect(r.code).toBe(1);
    expect(results.outcome).toBe('unsafe');
    expect(r.stdout).toMatch(/^outcome: UNSAFE; (\d+) of \1 fault windows struck \(100%\); [1-9]\d* double hold\(s\), [1-9]\d* refusal\(s\)$/m);
    expect(results.deciding).toEqual(['lost-updates', 'stale-writes', 'interleaved-sections', 'grant-tokens', 'access-stats']);
  });
});

describe('fencecheck check RUN_DIR: flags, exit codes, messages (issue 20)', () => {
  it('refuses the flags of history files (they would be ignored in silence)', () => {
    const dir = sampleCopy('flags');
    for (const flags of [['--model', 'register'], ['--format', 'edn'], ['--init', '0'], ['--threads', '2'], ['--no-partition']]) {
      const r = runCli(['check', dir, ...flags]);
      expect(r.code, flags.join(' ')).toBe(254);
      expect(r.stderr).toContain(`Expected no ${flags[0]} with run directories`);
    }
  });

  it('exits 3 on a valid run that showed no danger (untested), 1 on the unsafe sample', async () => {
    const dir = join(parent, 'untested');
    mkdirSync(dir);
    const files = await simulatedRunFiles({ ...SAMPLE_OPTIONS, nemesis: [], script: [] }, '2026-11-29T14:00:00.000Z');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const r = runCli(['check', dir]);
    expect(r.stdout).toMatch(/^outcome: UNTESTED/m);
    expect(r.code).toBe(3);
    expect(runCli(['check', sampleCopy('unsafe')]).code).toBe(1);
    // The worst code wins over several run directories: invalid (1) outranks untested (3).
    expect(runCli(['check', dir, sampleCopy('unsafe2')]).code).toBe(1);
  });

  it('a broken history.jsonl names no --format that was never given', () => {
    const dir = sampleCopy('bad-history');
    writeFileSync(join(dir, 'history.jsonl'), '{"index":0,"time":0,"process":0,"type":"invoke","f":"acquire"}\n{"index": oops}\n{"index":2}\n');
    for (const command of ['check', 'report']) {
      const r = runCli([command, dir]);
      expect(r.code).toBe(254);
      expect(r.stderr).not.toContain('as --format said');
      expect(r.stderr).toContain("a run directory's history is always JSON Lines");
    }
  });

  it('a FIFO or device in place of a run file is 254 at once, never a hang', () => {
    const fifo = sampleCopy('fifo');
    rmSync(join(fifo, 'history.jsonl'));
    execFileSync('mkfifo', [join(fifo, 'history.jsonl')]);
    const zero = sampleCopy('zero');
    rmSync(join(zero, 'test.json'));
    symlinkSync('/dev/zero', join(zero, 'test.json'));
    for (const command of ['check', 'report']) {
      const a = runCli([command, fifo], { timeout: 10_000 });
      expect(a.code).toBe(254);
      expect(a.stderr).toMatch(/history\.jsonl: it is a FIFO \(named pipe\), not a regular file/);
      // A link out of the run directory is refused before it is opened (a device's open can have effects), naming where it leads.
      const b = runCli([command, zero], { timeout: 10_000 });
      expect(b.code).toBe(254);
      expect(b.stderr).toContain(`${join(zero, 'test.json')} is a link to /dev/zero, outside its run directory`);
    }
    // A device inside the directory itself (only root can make one): refused as what it is, at once.
    if (process.getuid?.() === 0) {
      const dev = sampleCopy('device');
      rmSync(join(dev, 'test.json'));
      execFileSync('mknod', [join(dev, 'test.json'), 'c', '1', '5']);
      const c = runCli(['check', dev], { timeout: 10_000 });
      expect(c.code).toBe(254);
      expect(c.stderr).toContain(`${join(dev, 'test.json')}: is a character device, not a regular file`);
    }
  });
});

describe('fencecheck check DIR: special files are reported, never skipped', () => {
  it('a FIFO (by any name) and a link to /dev/zero below a directory are each an unreadable file, exit 254', () => {
    const dir = join(parent, 'with-fifo');
    mkdirSync(dir);
    cpSync(join(SAMPLE_MUTEX_RUN_DIR, 'history.jsonl'), join(dir, 'a.jsonl'));
    execFileSync('mkfifo', [join(dir, 'b.jsonl')]);
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    symlinkSync('/dev/zero', join(dir, 'zero'));
    const r = runCli(['check', dir, '--model', 'mutex'], { timeout: 10_000 });
    expect(r.code).toBe(254);
    expect(r.stdout).toContain('4 files:');
    expect(r.stdout).toContain('4 files: 0 valid, 1 invalid, 0 unknown, 3 unreadable');
    for (const name of ['b.jsonl', 'pipe', 'zero']) expect(r.stdout).toContain(join(dir, name));
  });
});

describe('declared facts the history contradicts (issue 32 item 4): no verdict, 254 naming the fact', () => {
  // The sample run (redis, fence, lock-counter) with one fact of its test.json changed each time.
  const edits: { fact: string; to: unknown; says: RegExp }[] = [
    {
      fact: 'workload',
      to: 'fenced-write',
      says: /`workload` does not fit the history: test\.json says workload fenced-write, but p\d+'s write of \d+ \(op #\d+\)/,
    },
    { fact: 'workload', to: 'mutex', says: /`workload` does not fit the history: test\.json says workload mutex, but p\d+'s (read|write)/ },
    { fact: 'workload', to: 'jobs', says: /`workload` does not fit the history: test\.json says workload jobs, but p\d+'s write of \d+ with no `job` field/ },
    { fact: 'resource', to: 'version', says: /`resource` does not fit the history: test\.json says resource version, but p\d+'s read recorded no row version/ },
    {
      fact: 'backend',
      to: 'redlock',
      says: /`backend` does not fit the history: test\.json says backend redlock \(its built-in client's tokens are unique\), but p\d+'s acquire granted token \d+/,
    },
    { fact: 'backend', to: 'none', says: /`backend` does not fit the history: test\.json says backend none, but p\d+'s acquire/ },
  ];
  it.each(edits)('test.json with $fact changed to $to: check, report and compare --merge --expect are 254 naming it', ({ fact, to, says }) => {
    const root = join(parent, `facts-${fact}-${String(to)}`);
    const dir = join(root, 'run');
    mkdirSync(root, { recursive: true });
    cpSync(SAMPLE_RUN_DIR, dir, { recursive: true });
    const test = JSON.parse(readFileSync(join(dir, 'test.json'), 'utf8')) as Record<string, unknown>;
    test[fact] = to;
    writeFileSync(join(dir, 'test.json'), JSON.stringify(test, null, 2));
    writeFileSync(join(root, 'expect.json'), JSON.stringify([{ expect: 'safe' }]));
    for (const args of [
      ['check', dir],
      ['report', dir],
      ['compare', '--merge', dir, '--out', join(root, 'out'), '--expect', join(root, 'expect.json')],
    ]) {
      const r = runCli(args);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(254);
      expect(r.stderr, args[0]).toContain(join(dir, 'test.json'));
      expect(r.stderr, args[0]).toMatch(says);
    }
  });
});
