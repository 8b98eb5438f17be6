/**
 * The shrink loop over the deterministic simulation (the real interpreter and
 * checkers; virtual time instead of a cluster): a failing run's plan comes
 * back from its directory and shrinks, every kept candidate failing in at
 * least k of K re-runs; bad input is a 254 with a hint.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FencecheckError } from '../../core/errors.js';
import { failedRunOptions, runShrink } from '../../src/shrink/run-shrink.js';
import { simHuntDeps } from '../hunt/sim-hunt-deps.js';

const SAMPLE = new URL('../fixtures/runs/sample-run', import.meta.url).pathname;
const temp = (): string => mkdtempSync(join(tmpdir(), 'fc-shrink-'));

describe('shrink, simulated', () => {
  it('shrinks a failing run and says so in the line scripts read', async () => {
    const before = failedRunOptions(SAMPLE);
    const shrinkDir = temp();
    const r = await runShrink({ runDir: SAMPLE, runs: 3, minFails: 2, maxCandidates: 25, shrinkDir }, simHuntDeps());
    expect(r.exitCode).toBe(1);
    expect(r.lines[0]).toMatch(/^shrunk to \d+ fault events?, \d+ clients?, \d+ s; reproduced \d+\/\d+$/);
    expect(r.reproduced.fails).toBeGreaterThanOrEqual(2);
    expect(r.options.script!.length).toBeLessThanOrEqual(before.script!.length);
    expect(r.options.clients).toBeLessThanOrEqual(before.clients);
    expect(r.steps.length).toBeGreaterThan(0);
    console.log(`[shrink simulated] ${r.lines[0]} (from ${before.script!.length} windows, ${before.clients} clients, ${before.timeLimitS} s): ${r.lines[4]}`);
    expect(r.lines[2]).toMatch(/^replay: fencecheck run .* --script '\[.*\]' --seed \d+$/);
    const json = JSON.parse(readFileSync(join(shrinkDir, 'shrink.json'), 'utf8'));
    expect(json.shrunk).toEqual({ script: r.options.script, clients: r.options.clients, timeLimitS: r.options.timeLimitS, rate: r.options.rate });
  }, 120_000);

  it('refuses a directory that is not a run, and a run that did not fail, with 254 and a hint', () => {
    const notRun = temp();
    expect(() => failedRunOptions(notRun)).toThrow(FencecheckError);
    expect(() => failedRunOptions(notRun)).toThrow(/not a run directory/);
    const passed = temp();
    cpSync(SAMPLE, passed, { recursive: true });
    const results = JSON.parse(readFileSync(join(passed, 'results.json'), 'utf8'));
    writeFileSync(join(passed, 'results.json'), JSON.stringify({ ...results, valid: true, outcome: 'safe' }));
    try {
      failedRunOptions(passed);
      expect.unreachable();
    } catch (err) {
      expect((err as FencecheckError).exitCode).toBe(254);
      expect((err as FencecheckError).message).toMatch(/this run did not fail \(verdict true\); there is nothing to shrink/);
      expect((err as FencecheckError).hint).toMatch(/failing `fencecheck run`/);
    }
  });

  it('reads a seeded run\'s schedule back as the script it ran', () => {
    const o = failedRunOptions(SAMPLE);
    expect(o.script!.length).toBeGreaterThan(0);
    expect(o.nemesis).toEqual([...new Set(o.script!.map((w) => w.fault))]);
  });
});
