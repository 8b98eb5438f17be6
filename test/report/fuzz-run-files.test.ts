/**
 * Fuzzing as a test: the run-file readers (readRunDir and src/store, what
 * `report` and `serve` read; checkRunDir, what `check RUN_DIR` reads; the
 * summaries `report --index` and `compare` read) fed the sample run with one
 * of its files damaged. Allowed: the run is read (and its report data built),
 * or a FencecheckError with exit 254; never another exception. Seeds printed
 * (test/support/seed.ts); replay with FC_SEED.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRunDir } from '../../src/check/check-run-dir.js';
import { readRunSummary } from '../../src/compare/run-summary.js';
import { FencecheckError } from '../../src/errors.js';
import { listRuns } from '../../src/report/list-runs.js';
import { readRunDir, RUN_FILES } from '../../src/report/read-run-dir.js';
import { buildReportData } from '../../src/report/report-data.js';
import { SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';
import { garbage, mutate, mutations } from '../support/mutate.js';
import { testSeed } from '../support/seed.js';

const root = mkdtempSync(join(tmpdir(), 'fencecheck-fuzz-run-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILES = [RUN_FILES.test, RUN_FILES.results, RUN_FILES.history] as const;
const original = Object.fromEntries(FILES.map((f) => [f, readFileSync(join(SAMPLE_RUN_DIR, f), 'utf8')])) as Record<(typeof FILES)[number], string>;
let runs = 0;
const tally = { read: 0, refused: 0 };

/** Every reader on `dir`; each must succeed or refuse with 254. */
async function readEveryWay(dir: string): Promise<void> {
  await allowed(async () => buildReportData(await readRunDir(dir), 'fuzz'));
  await allowed(() => checkRunDir(dir));
  await allowed(() => readRunSummary(dir, { id: 'x', cellId: 'redis/none/none', seed: 1 }));
  // The index never throws for one broken run: it lists the run with its problem.
  const listed = await listRuns(dir);
  expect(listed).toHaveLength(1);
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
    const content = (file: (typeof FILES)[number]) => fc.oneof({ weight: 3, arbitrary: mutations.map((m) => mutate(original[file], m)) }, { weight: 1, arbitrary: garbage });
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

  it('the sample run itself reads every way (the property is not passing by refusing everything)', async () => {
    const dir = runDirWith(RUN_FILES.test, original[RUN_FILES.test]);
    await expect(readRunDir(dir).then((r) => buildReportData(r, 'x'))).resolves.toBeDefined();
    await expect(checkRunDir(dir)).resolves.toBeDefined();
  });
});
