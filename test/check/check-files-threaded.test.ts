/**
 * `fencecheck check --threads N` spreads files over worker threads; it must
 * print the same verdicts, witnesses, warnings and errors, in the same file
 * order, with the same exit code, as one thread. Run through the built CLI
 * (the worker is a separate module of dist/), on the public corpus (skipped
 * when absent) and on seeded generated histories with a malformed and an
 * empty file among them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeLongHistory } from '../../bench/long-history.js';
import { corpusDir, readManifest } from '../../src/corpus/manifest.js';
import { runCli } from '../cli/run-cli.js';
import { testSeed } from '../support/seed.js';
import { madeTempDir } from '../support/temp-dirs.js';

const manifest = readManifest();
if (!manifest) console.warn(`check-files-threaded: corpus part skipped, no corpus at ${corpusDir()}`);

/** The --json results with the only field that may differ (time) blanked. */
function decisions(stdout: string): unknown[] {
  return (JSON.parse(stdout) as { stats?: { elapsedMs: number } }[]).map((r) => (r.stats ? { ...r, stats: { ...r.stats, elapsedMs: 0 } } : r));
}

/** The text output with each file's time blanked. */
function withoutTimes(stdout: string): string {
  return stdout.replace(/, [\d.]+ ms\)/g, ', _ ms)');
}

function expectSameOnThreads(args: string[]): void {
  const one = runCli([...args, '--threads', '1', '--json'], { timeout: 120_000 });
  for (const threads of ['2', '3']) {
    const many = runCli([...args, '--threads', threads, '--json'], { timeout: 120_000 });
    expect(many.code).toBe(one.code);
    expect(decisions(many.stdout)).toEqual(decisions(one.stdout));
  }
  const text1 = runCli([...args, '--threads', '1'], { timeout: 120_000 });
  const text2 = runCli([...args, '--threads', '2'], { timeout: 120_000 });
  expect(withoutTimes(text2.stdout)).toBe(withoutTimes(text1.stdout));
}

describe.skipIf(!manifest)('threads decide the corpus as one thread does', () => {
  it.each(['etcd', 'kv'] as const)('%s family', (family) => {
    const files = (manifest ?? []).filter((e) => e.family === family).map((e) => e.path);
    expect(files.length).toBeGreaterThan(1);
    expectSameOnThreads(['check', ...files, '--model', family]);
  });
});

describe('threads on generated histories', () => {
  // Made when this block's tests run (a filter, -t, that skips them all would skip a removal hook too).
  let dir = '';
  beforeAll(() => (dir = madeTempDir('fencecheck-threads-')));
  const seed = testSeed('check --threads', 'test/check/check-files-threaded.test.ts');

  it('valid, invalid, unreadable and bad files: same results, same order, same exit code', () => {
    const files: string[] = [];
    for (let i = 0; i < 6; i++) {
      const file = join(dir, `h${i}.log`);
      writeLongHistory(file, { ops: 300 + 100 * i, seed: seed + i, invalid: i % 2 === 1 });
      files.push(file);
    }
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"index":0,"time":0,"process":0,"type":"invoke","f":"write","value":1}\n{"index":1,"time":1,"proc');
    const empty = join(dir, 'empty.log');
    writeFileSync(empty, '');
    const args = ['check', ...files.slice(0, 3), bad, ...files.slice(3), empty, '--model', 'etcd'];
    const one = runCli([...args, '--threads', '1', '--json']);
    expect(one.code).toBe(254);
    const results = decisions(one.stdout) as { valid?: boolean; error?: { code: string } }[];
    expect(results.map((r) => r.valid ?? r.error?.code)).toEqual([true, false, true, 'parse', false, true, false, 'empty-history']);
    expectSameOnThreads(args);
  });
});
