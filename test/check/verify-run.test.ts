/**
 * verify-run.ts: a results.json is believed only where it equals what the
 * history gives. Each field a verdict is made of, edited alone, is refused
 * naming that field; the untouched files (a counter run, a mutex run) pass;
 * a file from before evidence was recorded is compared on what it has; and a
 * random edit of any verdict field is never accepted with a verdict other than
 * the history's (seeded, printed).
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifiedResults } from '../../src/check/verify-run.js';
import { readRunHistory } from '../../src/history/read-run-history.js';
import { RunFileError } from '../../core/run-files/run-file-error.js';
import { readTestJson } from '../../runtime/store/read-run-files.js';
import { SAMPLE_MUTEX_RUN_DIR, SAMPLE_RUN_DIR } from '../fixtures/make-sample-run.js';
import { testSeed } from '../support/seed.js';
import { madeTempDir } from '../support/temp-dirs.js';

type Json = Record<string, unknown> & {
  checkers: Record<string, unknown>[];
  evidence: { faults: Record<string, unknown>; protection: Record<string, number> };
};

function copy(source = SAMPLE_RUN_DIR): string {
  const dir = join(madeTempDir('fencecheck-verify-'), 'run');
  cpSync(source, dir, { recursive: true });
  return dir;
}

const read = (dir: string): Json => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Json;
const verify = (dir: string) => verifiedResults(dir, readTestJson(dir), () => readRunHistory(dir));

function refusal(dir: string): string {
  try {
    verify(dir);
  } catch (err) {
    if (err instanceof RunFileError) return err.message;
    throw err;
  }
  return 'accepted';
}

/** One edit per field a verdict is made of, and the words its refusal must name. */
const EDITS: [string, (r: Json) => void, RegExp][] = [
  ['valid', (r) => void (r.valid = true), /`valid` is true in the file but false from the history/],
  ['valid unknown', (r) => void (r.valid = 'unknown'), /`valid` is "unknown" in the file/],
  ['outcome', (r) => void (r.outcome = 'untested'), /`outcome` is "untested" in the file but "unsafe"/],
  ['deciding', (r) => void (r.deciding = ['access-stats']), /`deciding` is \["access-stats"\]/],
  ['a checker dropped', (r) => void r.checkers.pop(), /`checkers` is \[/],
  ['a checker valid', (r) => void (r.checkers[0]!.valid = true), /`checkers\[0\]\.valid \(lost-updates\)` is true/],
  ['an anomaly count', (r) => void (r.checkers[0]!.anomalyCount = 0), /`checkers\[0\]\.anomalyCount \(lost-updates\)` is 0/],
  ['faults applied', (r) => void (r.evidence.faults.applied = 0), /`evidence\.faults\.applied` is 0/],
  ['faults skipped', (r) => void (r.evidence.faults.skipped = [{ fault: 'kill', why: 'x' }]), /`evidence\.faults\.skipped` is 1/],
  ['double holds', (r) => void (r.evidence.protection.doubleHolds = 0), /`evidence\.protection\.doubleHolds` is 0/],
  ['refusals', (r) => void (r.evidence.protection.refusals = 99), /`evidence\.protection\.refusals` is 99/],
];

describe('verifiedResults: a results.json must match its history', () => {
  it('accepts the files a run wrote (counter and mutex runs) and gives the recomputed verdict', () => {
    for (const source of [SAMPLE_RUN_DIR, SAMPLE_MUTEX_RUN_DIR]) {
      const dir = copy(source);
      const v = verify(dir)!;
      expect(v.unchecked).toBeNull();
      expect(v.results?.valid).toBe(read(dir).valid);
      expect(v.results?.outcome).toBe(read(dir).outcome);
    }
  });

  it.each(EDITS)('refuses an edited %s, naming the field', (_name, edit, words) => {
    const dir = copy();
    const r = read(dir);
    edit(r);
    writeFileSync(join(dir, 'results.json'), JSON.stringify(r));
    expect(refusal(dir)).toMatch(words);
    expect(refusal(dir)).toMatch(/^.*results\.json: does not match the run's history: /);
  });

  it('compares a file from before evidence was recorded on what it has (valid, checkers), and refuses its edits too', () => {
    const dir = copy();
    const { deciding: _d, outcome: _o, evidence: _e, ...legacy } = read(dir);
    writeFileSync(join(dir, 'results.json'), JSON.stringify(legacy));
    expect(verify(dir)!.results?.outcome).toBe('unsafe');
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ ...legacy, valid: true, checkers: legacy.checkers.map((c) => ({ ...c, valid: true })) }));
    expect(refusal(dir)).toMatch(/`valid` is true/);
  });

  it('refuses a results.json it cannot check for want of test.json; one without a history gives no verdict, only the reason', () => {
    const noTest = copy();
    rmSync(join(noTest, 'test.json'));
    expect(() => verifiedResults(noTest, null, () => readRunHistory(noTest))).toThrow(/cannot be checked against the history: .*test\.json is missing/);
    const noHistory = copy();
    // Even a results.json forged to valid/safe: without the history it is not read as a verdict.
    writeFileSync(join(noHistory, 'results.json'), JSON.stringify({ ...read(noHistory), valid: true, outcome: 'safe' }));
    expect(verifiedResults(noHistory, readTestJson(noHistory), () => null)).toEqual({
      results: null,
      unchecked: 'no history.jsonl: its results.json cannot be checked',
    });
  });

  it('a random edit of the verdict fields is refused or changes nothing the history disagrees with', () => {
    const seed = testSeed('verify-run random edits', 'test/check/verify-run.test.ts');
    const dir = copy();
    const original = read(dir);
    let refused = 0;
    fc.assert(
      fc.property(
        fc.subarray(
          EDITS.map((e) => e[1]),
          { minLength: 1 },
        ),
        (edits) => {
          const r = structuredClone(original);
          for (const edit of edits) edit(r);
          writeFileSync(join(dir, 'results.json'), JSON.stringify(r));
          const said = refusal(dir);
          if (said !== 'accepted') refused++;
          // Every edit above changes a verdict field, so each combination must be refused.
          expect(said).not.toBe('accepted');
        },
      ),
      { seed, numRuns: 60 },
    );
    console.log(`[verify-run random edits] ${refused} of 60 edited files refused`);
  });
});
