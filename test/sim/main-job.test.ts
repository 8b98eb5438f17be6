/**
 * The README's main job (`npm run compare`, package.json's "compare" script)
 * in the deterministic simulation: its own flags, read from package.json, run
 * through the real compare spec (runOptionsFor: the aimed column's script)
 * and the real interpreter, 20 seeds per kind of cell. Each cell's outcome is
 * the same in every seed: unprotected unsafe, fenced and check-and-set safe
 * with the evidence (a double hold and a refusal). The real cluster's 20-seed
 * table is in the note; this keeps a change of the flags honest.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evidenceOf, outcomeOf } from '../../core/checkers/lock/evidence.js';
import { matrixCells, runOptionsFor, type CompareSpec } from '../../src/compare/compare-spec.js';
import { RUN_FLAGS } from '../../src/cli/run-flags.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { analyseRun } from '../../core/analyse/analyse-run.js';
import { DEFAULTS } from '../../core/plan/run-options.js';
import type { LockBackend, ResourceMode } from '../../core/vocabulary.js';
import { simulateRun } from './simulate-run.js';

/** The compare script's flags, parsed by the run flags' own parsers. */
function mainJobSpec(): CompareSpec {
  const script = (JSON.parse(readFileSync(`${projectRoot()}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts['compare']!;
  const words = script.split(/\s+/).slice(script.split(/\s+/).indexOf('compare') + 1);
  const { nemesis: _n, seed: _s, resultsDir: _r, ...run } = DEFAULTS;
  const flags = new Map<string, string>();
  for (let i = 0; i < words.length; i += 2) flags.set(words[i]!, words[i + 1]!);
  const shared: Record<string, unknown> = { ...run };
  for (const [f, key, , parse] of RUN_FLAGS) {
    const given = flags.get(f.split(' ')[0]!);
    if (given !== undefined) shared[key] = parse(given);
  }
  return {
    backends: flags.get('--backends')!.split(',') as LockBackend[],
    resources: flags.get('--resources')!.split(',') as ResourceMode[],
    nemeses: flags.get('--nemeses')!.split(','),
    seeds: [1],
    workload: 'lock-counter',
    run: shared as CompareSpec['run'],
  };
}

describe("the README's main job, simulated", () => {
  const spec = mainJobSpec();
  // One row per token kind the simulation has: monotonic (redis, etcd, zookeeper) and unique (redlock).
  const cells = matrixCells(['redis', 'redlock'], spec.resources, spec.nemeses).filter((c) => c.notApplicable === null);

  it('aims a client pause of several leases at holder-read', () => {
    expect(spec.nemeses).toEqual(['client-pause@holder-read']);
    expect(spec.run.durationMs).toBeGreaterThanOrEqual(2 * spec.run.ttlMs);
  });

  it.each(cells.map((c) => [c.id, c] as const))('%s: the same outcome in 20 of 20 seeds, with its evidence', async (_id, cell) => {
    const outcomes: string[] = [];
    for (let seed = 1; seed <= 20; seed++) {
      const o = runOptionsFor(spec, cell, seed, 'unused');
      const run = await simulateRun(o);
      const checked = analyseRun(run.history, o);
      const evidence = evidenceOf(run.history, checked.verdicts, o.script!.length);
      const outcome = outcomeOf(checked.valid, evidence, o.workload);
      outcomes.push(outcome);
      expect(evidence.faults, `seed ${seed}`).toMatchObject({ planned: 1, applied: 1 });
      expect(evidence.protection.doubleHolds, `seed ${seed}`).toBeGreaterThan(0);
      if (cell.resource !== 'none') expect(evidence.protection.refusals, `seed ${seed}`).toBeGreaterThan(0);
    }
    expect(new Set(outcomes)).toEqual(new Set([cell.resource === 'none' ? 'unsafe' : 'safe']));
  });
});
