/**
 * Fuzzing as a test: the run-file readers (readRunDir and runtime/store, what
 * `report` and `serve` read; checkRunDir, what `check RUN_DIR` reads; the
 * summaries `report --index` and `compare` read) fed the sample run with one
 * of its files damaged. Allowed: the run is read (and its report data built),
 * or a FencecheckError with exit 254; never another exception. Seeds printed
 * (test/support/seed.ts); replay with FC_SEED.
 *
 * Then random run directories: each file kept, missing, a FIFO, a link to
 * /dev/zero, a link out of the directory, a directory, or (results.json) its
 * verdict edited to safe. Besides the above, no reader may show a verdict the
 * history disagrees with. Last, the CLI (a child process under a timeout, so
 * a hang fails instead of freezing the suite) fed a FIFO and /dev/zero in
 * every file it reads.
 */
import { madeTempDir } from '../support/temp-dirs.js';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRunDir } from '../../src/check/check-run-dir.js';
import { readRunSummary } from '../../src/compare/run-summary.js';
import { FencecheckError } from '../../core/errors.js';
import { listRuns } from '../../src/report/list-runs.js';
import { readRunDir, RUN_FILES } from '../../src/report/read-run-dir.js';
import { buildReportData } from '../../src/report/report-data.js';
import { SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';
import { garbage, mutate, mutations } from '../support/mutate.js';
import { testSeed } from '../support/seed.js';
import { runCli } from '../cli/run-cli.js';

const root = madeTempDir('fencecheck-fuzz-run-');

const FILES = [RUN_FILES.test, RUN_FILES.results, RUN_FILES.history] as const;
const original = Object.fromEntries(FILES.map((f) => [f, readFileSync(join(SAMPLE_RUN_DIR, f), 'utf8')])) as Record<(typeof FILES)[number], string>;
let runs = 0;
const tally = { read: 0, refused: 0 };

/** Every reader on `dir`; each must succeed or refuse with 254. */
async function readEveryWay(dir: string, listedAtMost = false): Promise<void> {
  await allowed(async () => buildReportData(await readRunDir(dir), 'fuzz'));
  await allowed(() => checkRunDir(dir));
  await allowed(() => readRunSummary(dir, { id: 'x', cellId: 'redis/none/none', seed: 1 }));
  // The index never throws for one broken run: it lists the run with its problem.
  const listed = await listRuns(dir);
  // A directory left with no run file at all (each missing, or a directory) is no run: at most one then.
  if (listedAtMost) expect(listed.length).toBeLessThanOrEqual(1);
  else expect(listed).toHaveLength(1);
}

async function allowed(read: () => unknown): Promise<void> {
  try {
    await read();
    tally.read++;
  } catch (err) {
    if (!(err instanceof FencecheckError)) throw err;
    expect(err.exitCode, err.message).toBe(254);
    tally.refused++;
  }
}

function runDirWith(file: (typeof FILES)[number], text: string): string {
  const dir = join(root, `run-${runs++}`);
  cpSync(SAMPLE_RUN_DIR, dir, { recursive: true });
  writeFileSync(join(dir, file), text);
  return dir;
}

describe('run-file readers under fuzzing: read, or refused with 254', () => {
  it('one of test.json, results.json, history.jsonl mutated or replaced by garbage', async () => {
    const seed = testSeed('fuzz run files', 'test/report/fuzz-run-files.test.ts');
    const t0 = performance.now();
    const content = (file: (typeof FILES)[number]) =>
      fc.oneof({ weight: 3, arbitrary: mutations.map((m) => mutate(original[file], m)) }, { weight: 1, arbitrary: garbage });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILES).chain((file) => fc.tuple(fc.constant(file), content(file))),
        async ([file, text]) => {
          const dir = runDirWith(file, text);
          await readEveryWay(dir);
          rmSync(dir, { recursive: true, force: true });
        },
      ),
      { seed, numRuns: 100 },
    );
    console.log(`[fuzz run files] ${runs} run directories in ${Math.round(performance.now() - t0)} ms: ${tally.read} reads, ${tally.refused} refusals (254)`);
  });

  it('the sample run itself reads every way, to its own verdict (the property is not passing by refusing everything)', async () => {
    const dir = runDirWith(RUN_FILES.test, original[RUN_FILES.test]);
    const stored = JSON.parse(original[RUN_FILES.results]) as { valid: unknown; outcome: unknown; checkers: { checker: string; valid: unknown }[] };
    // The sample failed: a reader that dropped the verdict (or read it as safe) cannot pass by agreeing with a default.
    expect(stored).toMatchObject({ valid: false, outcome: 'unsafe' });
    const verdicts = stored.checkers.map((c) => [c.checker, c.valid]);
    const data = buildReportData(await readRunDir(dir), 'x');
    expect({ valid: data.results?.valid, ops: data.historyOps, warnings: data.warnings }).toEqual({
      valid: false,
      ops: original[RUN_FILES.history].trimEnd().split('\n').length,
      warnings: [],
    });
    expect(data.outcome).toMatch(/^outcome: UNSAFE; /);
    const checked = await checkRunDir(dir);
    expect({ valid: checked.results.valid, outcome: checked.results.outcome, verdicts: checked.results.checkers.map((c) => [c.checker, c.valid]) }).toEqual({
      valid: false,
      outcome: 'unsafe',
      verdicts,
    });
    expect(readRunSummary(dir, { id: 'x', cellId: 'redis/none/none', seed: 1 })).toMatchObject({ status: 'invalid', outcome: 'unsafe', error: null });
    expect(await listRuns(dir)).toHaveLength(1);
  });
});

type Variant = 'keep' | 'missing' | 'fifo' | 'dev-zero' | 'link-out' | 'directory' | 'tampered';
const VARIANTS: readonly Variant[] = ['keep', 'missing', 'fifo', 'dev-zero', 'link-out', 'directory', 'tampered'];
const TRUTH = JSON.parse(original[RUN_FILES.results]) as { valid: unknown };

/** The sample run with each file made as `variants` says (tampered: results.json edited to valid/safe, other files kept). */
function randomRunDir(variants: Record<(typeof FILES)[number], Variant>): string {
  const dir = join(root, `random-${runs++}`);
  cpSync(SAMPLE_RUN_DIR, dir, { recursive: true });
  const outside = join(root, `outside-${runs}`);
  mkdirSync(outside);
  for (const file of FILES) {
    const path = join(dir, file);
    const v = variants[file];
    if (v === 'keep' || (v === 'tampered' && file !== RUN_FILES.results)) continue;
    rmSync(path);
    if (v === 'fifo') execFileSync('mkfifo', [path]);
    else if (v === 'dev-zero') symlinkSync('/dev/zero', path);
    else if (v === 'directory') mkdirSync(path);
    else if (v === 'link-out') {
      writeFileSync(join(outside, file), original[file]);
      symlinkSync(join(outside, file), path);
    } else if (v === 'tampered') {
      const r = JSON.parse(original[file]) as { checkers: object[] };
      writeFileSync(path, JSON.stringify({ ...r, valid: true, outcome: 'safe', checkers: r.checkers.map((c) => ({ ...c, valid: true })) }));
    }
  }
  return dir;
}

describe('random run directories: missing, special, linked and tampered files', () => {
  it('every reader reads or refuses with 254, and none shows a verdict the history disagrees with', async () => {
    const seed = testSeed('fuzz random run dirs', 'test/report/fuzz-run-files.test.ts');
    const t0 = performance.now();
    const seen = { cases: 0, shown: 0, refusedTampered: 0 };
    // Kept and tampered files weigh more, so most directories get far enough for a verdict to be shown or refused.
    const variant: fc.Arbitrary<Variant> = fc.oneof(
      { weight: 4, arbitrary: fc.constant<Variant>('keep') },
      { weight: 2, arbitrary: fc.constant<Variant>('tampered') },
      { weight: 2, arbitrary: fc.constantFrom(...VARIANTS) },
    );
    await fc.assert(
      fc.asyncProperty(fc.record({ 'test.json': variant, 'results.json': variant, 'history.jsonl': variant }), async (variants) => {
        const dir = randomRunDir(variants);
        seen.cases++;
        await readEveryWay(dir, true);
        const summary = (() => {
          try {
            return readRunSummary(dir, { id: 'x', cellId: 'redis/fence/client-pause', seed: 7 });
          } catch {
            return null;
          }
        })();
        // A verdict that was read and checked against a history is the history's: the original run's.
        if (summary !== null && summary.status !== 'unknown' && summary.unverified !== true) {
          seen.shown++;
          expect(summary.status, JSON.stringify(variants)).toBe(TRUTH.valid === false ? 'invalid' : 'valid');
        }
        const shown = await readRunDir(dir).then(
          (r) => r.results,
          () => null,
        );
        if (shown !== null) expect(shown.valid, JSON.stringify(variants)).toBe(TRUTH.valid);
        else if (variants['results.json'] === 'tampered') seen.refusedTampered++;
        rmSync(dir, { recursive: true, force: true });
      }),
      { seed, numRuns: 80 },
    );
    console.log(
      `[fuzz random run dirs] ${seen.cases} directories in ${Math.round(performance.now() - t0)} ms: ${seen.shown} verdicts shown (all the history's), ${seen.refusedTampered} tampered results refused`,
    );
  }, 60_000);

  it('the CLI under a timeout: a FIFO and /dev/zero in every file report, check, the index, --merge, --resume and --expect read', () => {
    const cases: { what: string; args: (p: string) => string[]; make: (p: string, kind: 'fifo' | 'dev-zero') => void }[] = [];
    const special = (path: string, kind: 'fifo' | 'dev-zero'): void => {
      rmSync(path, { force: true, recursive: true });
      if (kind === 'fifo') execFileSync('mkfifo', [path]);
      else symlinkSync('/dev/zero', path);
    };
    for (const file of FILES) {
      cases.push({ what: `report (${file})`, args: (p) => ['report', join(p, 'run')], make: (p, k) => special(join(p, 'run', file), k) });
      cases.push({ what: `check RUN_DIR (${file})`, args: (p) => ['check', join(p, 'run')], make: (p, k) => special(join(p, 'run', file), k) });
      cases.push({
        what: `compare --merge (${file})`,
        args: (p) => ['compare', '--merge', p, '--out', join(p, 'out')],
        make: (p, k) => special(join(p, 'run', file), k),
      });
    }
    cases.push({
      what: 'compare --expect',
      args: (p) => ['compare', '--merge', p, '--out', join(p, 'out'), '--expect', join(p, 'expect.json')],
      make: (p, k) => special(join(p, 'expect.json'), k),
    });
    cases.push({
      what: 'compare --resume (manifest)',
      args: (p) => ['compare', '--resume', join(p, 'cmp')],
      make: (p, k) => (mkdirSync(join(p, 'cmp')), special(join(p, 'cmp', 'manifest.json'), k)),
    });
    cases.push({
      what: 'compare --merge (manifest)',
      args: (p) => ['compare', '--merge', join(p, 'cmp'), '--out', join(p, 'out')],
      make: (p, k) => (mkdirSync(join(p, 'cmp')), special(join(p, 'cmp', 'manifest.json'), k)),
    });
    let n = 0;
    for (const c of cases) {
      for (const kind of ['fifo', 'dev-zero'] as const) {
        const p = join(root, `cli-${n++}`);
        cpSync(SAMPLE_RUN_DIR, join(p, 'run'), { recursive: true });
        c.make(p, kind);
        const r = runCli(c.args(p), { timeout: 15_000 });
        if (c.what === 'check RUN_DIR (results.json)') {
          // check RUN_DIR never reads the results.json it replaces: the verdict is the history's (1), written as a regular file.
          expect(r.code, `${c.what} with ${kind}: ${r.stderr}`).toBe(1);
          expect(JSON.parse(readFileSync(join(p, 'run', 'results.json'), 'utf8'))).toMatchObject({ valid: false });
          continue;
        }
        expect(r.code, `${c.what} with ${kind}: ${r.stderr}`).toBe(254);
        // --merge does not follow links below the paths it is given: a link to /dev/zero is skipped, and said;
        // every reader of a run refuses a link out of the run directory before opening it (--expect is the user's own file: its device is named).
        expect(r.stderr, c.what).toMatch(
          kind === 'fifo' ? /FIFO \(named pipe\)/ : /is a link to \/dev\/zero, outside|is a symbolic link, not followed; skipped|character device/,
        );
      }
    }
    // The index lists such runs with their problem and exits 0 (it never stops for one broken run).
    const p = join(root, 'cli-index');
    cpSync(SAMPLE_RUN_DIR, join(p, 'a'), { recursive: true });
    cpSync(SAMPLE_RUN_DIR, join(p, 'b'), { recursive: true });
    special(join(p, 'a', 'results.json'), 'fifo');
    special(join(p, 'b', 'test.json'), 'dev-zero');
    const index = runCli(['report', '--index', p], { timeout: 15_000 });
    expect(index.code, index.stderr).toBe(0);
    expect(readFileSync(join(p, 'index.html'), 'utf8')).toMatch(/is a FIFO \(named pipe\), not a regular file[\s\S]*|is a character device/);
    console.log(
      `[fuzz run files, CLI] ${n} commands fed a FIFO or /dev/zero, each within the timeout: 254, or (check RUN_DIR over its results.json) the history's verdict written over it`,
    );
  }, 120_000);
});
