/**
 * What `compare --merge` and `--expect` refuse or say, on run directories the
 * product made (the sample runs, and a run without faults simulated and
 * checked by the real checkers): a results.json edited to safe (254, the
 * field named), expectations that are empty, match no cell, nest too deep or
 * are no regular file (254), cells no expectation covers (said), an untested
 * cell passed over (exit 3), and a compare directory whose runs/ links out of
 * it (refused, said).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareInProcess } from './compare-in-process.js';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { mergeCompare } from '../../src/compare/merge-compare.js';
import { newManifest } from '../../src/compare/manifest.js';
import { runCompare } from '../../src/compare/run-compare.js';
import { SAMPLE_OPTIONS, SAMPLE_RUN_DIR, simulatedRunFiles } from '../fixtures/make-sample-run.js';
import { fakeClock, fakeRunOne, spec, tempDir } from './fixture-runs.js';

const { io, compare } = compareInProcess();

async function refusal(...args: string[]): Promise<FencecheckError> {
  const e = await compare(...args).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(FencecheckError);
  return e as FencecheckError;
}

/** A folder of artifacts: the sample (unsafe) run, and optionally a run without faults (valid, untested). */
async function artifacts(opts: { untested?: boolean } = {}): Promise<string> {
  const root = tempDir('guards');
  cpSync(SAMPLE_RUN_DIR, join(root, 'a', 'unsafe'), { recursive: true });
  if (opts.untested) {
    const files = await simulatedRunFiles({ ...SAMPLE_OPTIONS, nemesis: [], script: [] }, '2026-11-29T14:00:00.000Z');
    mkdirSync(join(root, 'a', 'untested'), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'a', 'untested', name), text);
  }
  return root;
}

const expectFile = (root: string, value: unknown): string => {
  const path = join(root, `expect-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

describe('compare --merge believes no results.json on its word', () => {
  it('a results.json edited to valid/safe is refused with 254 naming the difference, with or without --expect', async () => {
    const root = await artifacts();
    const results = join(root, 'a', 'unsafe', 'results.json');
    const r = JSON.parse(readFileSync(results, 'utf8')) as { checkers: object[] };
    writeFileSync(results, JSON.stringify({ ...r, valid: true, outcome: 'safe', checkers: r.checkers.map((c) => ({ ...c, valid: true })) }));
    for (const extra of [[], ['--expect', expectFile(root, [{ expect: 'safe' }])]]) {
      const e = await refusal('--merge', join(root, 'a'), '--out', join(root, 'out'), ...extra);
      expect(e.exitCode).toBe(EXIT.badInput);
      expect(e.message).toBe(
        `${results}: does not match the run's history: \`valid\` is true in the file but false from the history; the file was edited or written by another tool`,
      );
    }
  });

  it('a run without its history.jsonl gets no verdict from its results.json, even one edited to valid/safe: unknown, and --expect safe fails', async () => {
    const root = await artifacts();
    const results = join(root, 'a', 'unsafe', 'results.json');
    const r = JSON.parse(readFileSync(results, 'utf8')) as { checkers: object[] };
    writeFileSync(results, JSON.stringify({ ...r, valid: true, outcome: 'safe', checkers: r.checkers.map((c) => ({ ...c, valid: true })) }));
    rmSync(join(root, 'a', 'unsafe', 'history.jsonl'));
    expect(await compare('--merge', join(root, 'a'), '--out', join(root, 'out'), '--expect', expectFile(root, [{ expect: 'safe' }]))).toBe(EXIT.invalid);
    expect(io.err).toContain(`warning: 1 run has no history.jsonl, so its results.json cannot be checked: counted as unknown (${join(root, 'a', 'unsafe')})`);
    expect(io.out).toMatch(/1 of 1 run unknown or failed/);
    const merged = mergeCompare([join(root, 'a')], join(root, 'out2'), null, 'now').report;
    expect(merged.cells.map((c) => [c.outcome, c.runs.map((run) => run.error)])).toEqual([
      ['unknown', [`${join(root, 'a', 'unsafe')}: no history.jsonl: its results.json cannot be checked`]],
    ]);
  });

  it('the same runs untouched merge: unsafe exits 1, an untested cell alone exits 3', async () => {
    const root = await artifacts({ untested: true });
    expect(await compare('--merge', join(root, 'a'), '--out', join(root, 'out'))).toBe(EXIT.invalid);
    const only = tempDir('only-untested');
    cpSync(join(root, 'a', 'untested'), join(only, 'u'), { recursive: true });
    expect(await compare('--merge', only, '--out', join(only, 'out'))).toBe(EXIT.untested);
    expect(io.out).toMatch(/untested \(no fault struck, or the lock never failed\)/);
  });
});

describe('--expect', () => {
  it('an empty list, or one whose entries match no cell, is 254 before anything is written', async () => {
    const root = await artifacts();
    for (const [value, words] of [
      [[], /to hold at least one expectation, got an empty array/],
      [
        [
          { backend: 'nosuch', expect: 'safe' },
          { nemesis: 'kill', expect: 'unsafe' },
        ],
        /to name at least one cell of the matrix, got 2 entries that match none/,
      ],
    ] as const) {
      const e = await refusal('--merge', join(root, 'a'), '--out', join(root, 'out'), '--expect', expectFile(root, value));
      expect(e.exitCode).toBe(EXIT.badInput);
      expect(e.message).toMatch(words);
    }
    const dry = await refusal(
      '--backends',
      'redis',
      '--resources',
      'fence',
      '--nemeses',
      'kill',
      '--dry-run',
      '--out',
      join(root, 'dry'),
      '--expect',
      expectFile(root, [{ backend: 'etcd', expect: 'safe' }]),
    );
    expect(dry.message).toMatch(/to name at least one cell of the matrix/);
    expect(dry.hint).toMatch(/e\.g\. redis\/fence\/kill/);
  });

  it('nesting too deep, a FIFO, /dev/zero and an oversized file are 254 (no stack overflow, no hang, no memory blow-up)', async () => {
    const root = await artifacts();
    execFileSync('mkfifo', [join(root, 'fifo.json')]);
    const deep = expectFile(root, `[{"expect":"safe","note":${'['.repeat(5000)}${']'.repeat(5000)}}]`);
    const big = expectFile(root, `[${'{"expect":"any"},'.repeat(70_000)}{"expect":"any"}]`);
    for (const [file, words] of [
      [deep, /found deeper nesting at character \d+ \(values nested at most 1000 deep\)/],
      [join(root, 'fifo.json'), /which is a FIFO \(named pipe\), not a regular file/],
      ['/dev/zero', /which is a character device, not a regular file/],
      [big, /which is larger than 1 MiB/],
    ] as const) {
      const e = await refusal('--merge', join(root, 'a'), '--out', join(root, 'out'), '--expect', file);
      expect(e.exitCode, file).toBe(EXIT.badInput);
      expect(e.message).toMatch(words);
    }
  }, 10_000);

  it('cells no entry names are said; an untested one of them makes the exit 3, not 0', async () => {
    const root = await artifacts({ untested: true });
    const code = await compare(
      '--merge',
      join(root, 'a'),
      '--out',
      join(root, 'out'),
      '--expect',
      expectFile(root, [{ nemesis: 'client-pause', expect: 'unsafe' }]),
    );
    expect(io.err).toContain('warning: 1 cell has no expectation (redis/fence/none): its outcome decides nothing, except that an untested one exits 3');
    expect(code).toBe(EXIT.untested);
    const covered = await compare(
      '--merge',
      join(root, 'a'),
      '--out',
      join(root, 'out2'),
      '--expect',
      expectFile(root, [
        { nemesis: 'client-pause', expect: 'unsafe' },
        { nemesis: 'none', expect: 'any' },
      ]),
    );
    expect(covered).toBe(EXIT.valid);
  });
});

describe('--merge confinement', () => {
  it('a compare directory whose runs/ links outside it: those runs are refused and said, not read', async () => {
    const root = tempDir('escape');
    const dir = join(root, 'cmp');
    await runCompare(dir, newManifest(spec({ backends: ['redis'], resources: ['none'], nemeses: ['kill'], seeds: [1] }), null, 'now'), null, {
      runOne: fakeRunOne(() => ({ valid: false, anomalies: { 'lost-update': 1 } })),
      writeReport: null,
      io: { write: () => undefined, live: false, now: fakeClock().now },
      verbose: false,
      clusterBusy: async () => false,
    });
    renameSync(join(dir, 'runs'), join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(dir, 'runs'));
    const merged = mergeCompare([dir], join(root, 'out'), null, 'now').report;
    expect(merged.warnings).toContainEqual(
      expect.stringMatching(/runs\/.* leads outside the compare directory \(to .*elsewhere.*\): not read, the run counts as failed/),
    );
    expect(merged.totals.invalid).toBe(0);
    expect(merged.verdict).toBe('unknown');
    expect(merged.exitCode).toBe(EXIT.unknown);
  });
});
