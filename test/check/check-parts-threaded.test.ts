/**
 * `fencecheck check FILE --threads N` on one kv history spreads its keys over
 * N threads; it must give one thread's verdict and witness: the same part,
 * the same prefix, the same op, the same state and reason, also when several
 * keys are broken (which one is reported depends on the search's rounds, not
 * on the threads). Through the built CLI (the worker is a module of dist/),
 * on seeded generated histories and the public kv corpus (skipped when
 * absent). The pure parts (shares, combining, the transfer) are tested below.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeLongKvHistory } from '../../bench/long-kv-history.js';
import type { Operation } from '../../core/checkers/operation.js';
import { combine, type ShareOutcome } from '../../core/checkers/linearizability/shares.js';
import { assignShares } from '../../src/check/check-parts-threaded.js';
import { decodeParts, encodeParts } from '../../src/check/parts-transfer.js';
import { corpusDir, readManifest } from '../../src/corpus/manifest.js';
import { Prng } from '../../core/random/prng.js';
import { runCli } from '../cli/run-cli.js';
import { testSeed } from '../support/seed.js';
import { madeTempDir } from '../support/temp-dirs.js';

const manifest = readManifest();
if (!manifest) console.warn(`check-parts-threaded: corpus part skipped, no corpus at ${corpusDir()}`);

interface JsonResult {
  valid?: boolean | 'unknown';
  reason?: string;
  witness?: unknown;
  error?: { code: string };
  stats?: { operations: number; partitions: number; steps: number; cacheEntries: number; elapsedMs: number };
}

/** What must not depend on the threads: everything but the timings and the search's own counts. */
function decision(stdout: string): unknown {
  const [r] = JSON.parse(stdout) as (JsonResult & { parseMs?: number })[];
  const { stats, parseMs: _parseMs, ...rest } = r!;
  return { ...rest, ...(stats ? { operations: stats.operations, partitions: stats.partitions } : {}) };
}

function expectSameOnThreads(file: string): JsonResult {
  const one = runCli(['check', file, '--model', 'kv', '--threads', '1', '--json'], { timeout: 120_000 });
  for (const threads of ['2', '3']) {
    const many = runCli(['check', file, '--model', 'kv', '--threads', threads, '--json'], { timeout: 120_000 });
    // Past the cores or the parts (keys), --threads is capped and says so (test/cli/threads-cap.test.ts); nothing
    // else on stderr differs.
    expect(withoutThreadNotes(many.stderr)).toBe(one.stderr);
    expect(many.code).toBe(one.code);
    expect(decision(many.stdout)).toEqual(decision(one.stdout));
  }
  return (JSON.parse(one.stdout) as JsonResult[])[0]!;
}

function withoutThreadNotes(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !l.startsWith('note: --threads'))
    .join('\n');
}

/** Breaks `count` keys: one ok get of each (chosen by the seed) returns a value nobody wrote. */
function breakKeys(file: string, seed: number, count: number): string[] {
  const rng = new Prng(seed);
  const lines = readFileSync(file, 'utf8').split('\n');
  const gets = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const m = /^\{:process \d+, :type :ok, :f :get, :key "([^"]*)"/.exec(line);
    if (m) gets.set(m[1]!, [...(gets.get(m[1]!) ?? []), i]);
  });
  const keys = [...gets.keys()].sort();
  const broken: string[] = [];
  while (broken.length < count) {
    const key = keys[rng.int(0, keys.length - 1)]!;
    if (broken.includes(key)) continue;
    const at = gets.get(key)!;
    const line = at[rng.int(0, at.length - 1)]!;
    lines[line] = lines[line]!.replace(/:value (nil|"[^"]*")\}$/, `:value "corrupt ${broken.length}"}`);
    broken.push(key);
  }
  writeFileSync(file, lines.join('\n'));
  return broken;
}

describe("one history's keys on threads", () => {
  // Made when this block's tests run (a filter, -t, that skips them all would skip a removal hook too).
  let dir = '';
  beforeAll(() => (dir = madeTempDir('fencecheck-parts-')));
  const seed = testSeed('check one history on threads', 'test/check/check-parts-threaded.test.ts');

  it('a valid history: valid on any number of threads', () => {
    const file = join(dir, 'valid.txt');
    writeLongKvHistory(file, { ops: 6000, seed, keys: 24 });
    const r = expectSameOnThreads(file);
    expect(r.valid).toBe(true);
    expect(r.stats!.partitions).toBe(24);
  });

  it.each([1, 3, 6])('%i broken keys: the same key, prefix and op reported on any number of threads', (count) => {
    const file = join(dir, `broken-${count}.txt`);
    writeLongKvHistory(file, { ops: 6000, seed: seed + count, keys: 24 });
    const broken = breakKeys(file, seed + count, count);
    const r = expectSameOnThreads(file);
    expect(r.valid).toBe(false);
    const label = (r.witness as { partition: string }).partition;
    expect(broken.map((k) => `key ${JSON.stringify(k)}`)).toContain(label);
  });

  it('bad input: the same error and exit code on threads', () => {
    const file = join(dir, 'cut.txt');
    writeLongKvHistory(file, { ops: 500, seed, keys: 8 });
    writeFileSync(file, readFileSync(file, 'utf8') + '{:process 1, :type :ok, :f :get, :key "3", :value\n');
    const r = expectSameOnThreads(file);
    expect(r.error?.code).toBe('parse');
  });

  it.skipIf(!manifest).each(['c01-bad', 'c10-bad', 'c50-bad', 'c50-ok'])('corpus %s', (name) => {
    const entry = (manifest ?? []).find((e) => e.path.endsWith(`${name}.txt`))!;
    expectSameOnThreads(entry.path);
  });
});

describe('assignShares', () => {
  it('balances ops, largest part first, and lists each share in part order', () => {
    // 5 → 0; 4 → 1; 3 → 1 (4 < 5); 2 → 0 (5 < 7); 1 → 0 (7 = 7, the lower thread): loads 8 and 7.
    expect(assignShares([5, 1, 4, 2, 3], 2)).toEqual([
      [0, 1, 3],
      [2, 4],
    ]);
  });
  it('is deterministic and covers every part once', () => {
    const rng = new Prng(testSeed('assignShares cover', 'test/check/check-parts-threaded.test.ts'));
    for (let trial = 0; trial < 200; trial++) {
      const sizes = Array.from({ length: rng.int(0, 40) }, () => rng.int(1, 1000));
      const threads = rng.int(1, 5);
      const shares = assignShares(sizes, threads);
      expect(shares).toHaveLength(threads);
      expect(shares.flat().sort((a, b) => a - b)).toEqual(sizes.map((_, i) => i));
      for (const s of shares) expect(s).toEqual([...s].sort((a, b) => a - b));
      expect(assignShares(sizes, threads)).toEqual(shares);
      // Greedy on the largest first: no share exceeds another by more than the largest part.
      const loads = shares.map((s) => s.reduce((n, p) => n + sizes[p]!, 0));
      if (sizes.length > 0) expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(Math.max(...sizes));
    }
  });
});

describe('combine', () => {
  const witness = (part: number) => ({ partition: part, partitionLabel: `key "${part}"`, prefix: [], state: '""', op: {} as Operation, reason: 'r' });
  const share = (o: Partial<ShareOutcome>): ShareOutcome => ({ steps: 10, cacheEntries: 2, ...o });

  it('reports the invalid part first in (round, part) order, as one thread would', () => {
    const r = combine(
      [
        share({ invalid: { round: 3, part: 1, witness: witness(1) } }),
        share({ invalid: { round: 2, part: 7, witness: witness(7) } }),
        share({ invalid: { round: 2, part: 4, witness: witness(4) } }),
      ],
      100,
      9,
      undefined,
      5,
    );
    expect(r.valid).toBe(false);
    expect(r.witness!.partition).toBe(4);
    expect(r.stats).toEqual({ operations: 100, partitions: 9, steps: 30, cacheEntries: 6, elapsedMs: 5 });
  });

  it('a violation beats a deadline, a deadline beats a part given up on, and all decided is valid', () => {
    expect(combine([share({ deadlineWith: 2 }), share({ invalid: { round: 9, part: 0, witness: witness(0) } })], 1, 2, 10, 0).valid).toBe(false);
    const late = combine([share({ deadlineWith: 2 }), share({ deadlineWith: 1 }), share({ unknown: { part: 0, reason: 'x' } })], 1, 8, 10, 0);
    expect(late).toMatchObject({ valid: 'unknown', reason: 'deadline of 10 ms reached with 3 of 8 partitions undecided' });
    const gaveUp = combine([share({ unknown: { part: 5, reason: 'ceiling' } }), share({ unknown: { part: 2, reason: 'ceiling 2' } })], 1, 8, undefined, 0);
    expect(gaveUp).toMatchObject({ valid: 'unknown', reason: 'partition 3/8: ceiling 2' });
    expect(combine([share({}), share({})], 1, 8, undefined, 0).valid).toBe(true);
  });
});

describe('parts-transfer', () => {
  it('decodes exactly what it encoded: pending ops, fail observations, string processes', () => {
    const op = (id: number, o: Partial<Operation>): Operation => ({
      id,
      process: id,
      f: 'get',
      input: ['k', null],
      output: null,
      status: 'pending',
      call: id,
      ret: Infinity,
      invokeIndex: id * 2,
      completeIndex: null,
      ...o,
    });
    const parts: Operation[][] = [
      [op(0, { status: 'ok', output: ['k', 'x 1 y'], ret: 4, completeIndex: 5 }), op(3, {})],
      [],
      [op(1, { f: 'append', input: ['k2', 'v'], status: 'fail', output: ['k2', { a: [1, 2.5, true] }], ret: 1e18, completeIndex: 9 })],
    ];
    const encoded = encodeParts(parts);
    // What a worker receives: a structured clone (the numbers are transferred).
    expect(decodeParts(structuredClone(encoded))).toEqual(parts);
  });
});
