/**
 * The directory a command writes into is made and proved writable before anything starts: a path under
 * /proc (where Node's recursive mkdir spun forever), a regular file, a path through a file, all 254 naming
 * the flag, in the library and through the CLI of every command that writes a run directory. A refused
 * run leaves no empty <test>/ directory behind.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { assertCreatableDir, ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { runCli } from '../cli/run-cli.js';
import { madeTempDir } from '../support/temp-dirs.js';

function refusedWith(f: () => unknown, text: string | RegExp): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(UsageError);
  expect((err as UsageError).exitCode).toBe(254);
  expect((err as Error).message).toMatch(text);
}

describe('ensureWritableDir', () => {
  it('makes every missing component and leaves no probe file', () => {
    const root = madeTempDir('fencecheck-wdir-');
    const dir = ensureWritableDir(join(root, 'a', 'b', 'c'), '`--results`');
    expect(existsSync(dir)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    expect(ensureWritableDir(dir, '`--results`')).toBe(dir);
  });

  it('refuses /proc/nope at once (mkdir there says ENOENT forever), a file, a path through a file', () => {
    const root = madeTempDir('fencecheck-wdir-');
    writeFileSync(join(root, 'file'), 'x');
    refusedWith(
      () => ensureWritableDir('/proc/nope', '`--results`'),
      'Expected `--results` to name a directory fencecheck can create, got `/proc/nope` (mkdir /proc/nope: ENOENT)',
    );
    refusedWith(() => ensureWritableDir('/proc/nope/deeper', '`--out`'), /^Expected `--out` .*mkdir \/proc\/nope: ENOENT/);
    refusedWith(() => ensureWritableDir(join(root, 'file'), '`--out`'), /is a file/);
    refusedWith(() => ensureWritableDir(join(root, 'file', 'sub'), '`--out`'), /ENOTDIR/);
    // A directory that takes no files: /proc itself.
    refusedWith(() => ensureWritableDir('/proc', '`--run-dir`'), /takes no files/);
  });

  it('assertCreatableDir (dry runs) refuses the same and leaves nothing made', () => {
    const root = madeTempDir('fencecheck-wdir-');
    refusedWith(() => assertCreatableDir('/proc/nope', '`--out`'), /ENOENT/);
    assertCreatableDir(join(root, 'x', 'y'), '`--out`');
    expect(readdirSync(root)).toEqual([]);
  });

  it('RunStore.create refuses a results dir that is a file with 254, no stack (was ENOTDIR, 255)', () => {
    const root = madeTempDir('fencecheck-wdir-');
    writeFileSync(join(root, 'file'), 'x');
    refusedWith(() => RunStore.create(join(root, 'file'), 't', new Date()), /the results directory/);
  });

  it('a discarded (refused) run removes the <test>/ directory it made, and keeps one another run uses', () => {
    const root = madeTempDir('fencecheck-wdir-');
    RunStore.create(root, 'fresh', new Date('2026-12-01T10:00:00Z')).discard();
    expect(readdirSync(root)).toEqual([]);
    mkdirSync(join(root, 'used', 'older-run'), { recursive: true });
    RunStore.create(root, 'used', new Date('2026-12-01T10:00:00Z')).discard();
    expect(readdirSync(join(root, 'used'))).toEqual(['older-run']);
  });
});

describe('the commands that write a run directory refuse a bad one before anything starts', () => {
  const root = madeTempDir('fencecheck-wdir-cli-');
  writeFileSync(join(root, 'file'), 'x');
  const file = join(root, 'file');
  it.each([
    [['run', '--backend', 'redis', '--results', '/proc/nope'], '`--results`'],
    [['run', '--backend', 'redis', '--results', file], '`--results`'],
    [['compare', '--backends', 'redis', '--resources', 'none', '--nemeses', 'none', '--out', '/proc/nope'], '`--out`'],
    [['compare', '--backends', 'redis', '--resources', 'none', '--nemeses', 'none', '--out', '/proc/nope', '--dry-run'], '`--out`'],
    [['scenario', 'run', 'S1', '--variant', 'redis-none', '--out', join(file, 'x')], '`--out`'],
    [['client-check', '--backend', 'redis', '--results', '/proc/nope'], '`--results`'],
    [['up', '--backend', 'redis', '--run-dir', '/proc/nope'], '`--run-dir`'],
  ])('%j', (args, flag) => {
    const r = runCli(args, { timeout: 20_000, cwd: root });
    expect(r.code).toBe(254);
    expect(r.stderr).toContain(`Expected ${flag} to name`);
    expect(r.stderr).toContain('Hint:');
    expect(r.stderr).not.toMatch(/internal error|at .*\.js/);
  });
});
