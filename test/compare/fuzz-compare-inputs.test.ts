/**
 * Fuzzing as a test: what `compare` reads that a person or another machine
 * wrote, the --expect file and a compare directory's manifest.json (merged
 * from CI artifacts, resumed after a crash). A mutated or garbage input is
 * parsed, or refused with a 254 that names the file or the entry; never
 * another exception. Seeds printed (test/support/seed.ts); replay with FC_SEED.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExpectations } from '../../src/compare/expectations.js';
import { newManifest } from '../../src/compare/manifest.js';
import { mergeCompare } from '../../src/compare/merge-compare.js';
import { resumeCompareDir } from '../../src/compare/open-compare-dir.js';
import { runCompare } from '../../src/compare/run-compare.js';
import { FencecheckError } from '../../core/errors.js';
import { garbage, mutate, mutations } from '../support/mutate.js';
import { testSeed } from '../support/seed.js';
import { fakeClock, fakeRunOne, spec, tempDir } from './fixture-runs.js';

const EXPECTATIONS = JSON.stringify(
  [
    { resource: 'fence-claim', expect: 'safe', useful: true },
    { resource: 'none', nemesis: ['client-pause', 'partition+kill'], expect: 'unsafe', kinds: ['lost-update'] },
    { backend: 'redlock*', expect: 'any', note: 'no token' },
  ],
  null,
  2,
);

function refusedWith254(err: unknown): void {
  if (!(err instanceof FencecheckError)) throw err;
  expect(err.exitCode, err.message).toBe(254);
}

describe('compare inputs under fuzzing: parsed, or refused with 254', () => {
  it('--expect files', () => {
    const seed = testSeed('fuzz expectations', 'test/compare/fuzz-compare-inputs.test.ts');
    const t0 = performance.now();
    let parsed = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.oneof({ weight: 3, arbitrary: mutations.map((m) => mutate(EXPECTATIONS, m)) }, { weight: 1, arbitrary: garbage }), (text) => {
        try {
          parseExpectations(text, 'expect.json');
          parsed++;
        } catch (err) {
          refusedWith254(err);
          expect((err as Error).message).toMatch(/expect\.json/);
          refused++;
        }
      }),
      { seed, numRuns: 2000 },
    );
    console.log(`[fuzz expectations] 2000 runs in ${Math.round(performance.now() - t0)} ms: ${parsed} parsed, ${refused} refused (254)`);
    expect(parseExpectations(EXPECTATIONS, 'expect.json')).toHaveLength(3);
  });

  let dir: string;
  let manifest: string;
  beforeAll(async () => {
    dir = tempDir('fuzz-manifest');
    await runCompare(join(dir, 'c'), newManifest(spec({ seeds: [1] }), null, 'now'), null, {
      runOne: fakeRunOne((o) => (o.resource === 'none' ? { valid: false, anomalies: { 'lost-update': 1 } } : { valid: true })),
      writeReport: null,
      io: { write: () => undefined, live: false, now: fakeClock().now },
      verbose: false,
      clusterBusy: async () => false,
    });
    manifest = readFileSync(join(dir, 'c', 'manifest.json'), 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('manifest.json, merged and resumed', () => {
    const seed = testSeed('fuzz manifest', 'test/compare/fuzz-compare-inputs.test.ts');
    const t0 = performance.now();
    let read = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.oneof({ weight: 3, arbitrary: mutations.map((m) => mutate(manifest, m)) }, { weight: 1, arbitrary: garbage }), (text) => {
        writeFileSync(join(dir, 'c', 'manifest.json'), text);
        for (const read_ of [() => mergeCompare([join(dir, 'c')], join(dir, 'merged'), null, 'now'), () => resumeCompareDir(join(dir, 'c'))]) {
          try {
            read_();
            read++;
          } catch (err) {
            refusedWith254(err);
            refused++;
          }
        }
      }),
      { seed, numRuns: 300 },
    );
    console.log(`[fuzz manifest] 300 runs in ${Math.round(performance.now() - t0)} ms: ${read} reads, ${refused} refusals (254)`);
    writeFileSync(join(dir, 'c', 'manifest.json'), manifest);
    expect(mergeCompare([join(dir, 'c')], join(dir, 'merged'), null, 'now').report.cells.length).toBeGreaterThan(0);
  });
});
