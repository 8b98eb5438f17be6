/**
 * The runs a `scenario run` makes, in order (pure): every selected variant
 * that can run, once per seed, seed-major (every variant's first seed, then
 * every variant's second), so a run cut short still covers every row. Rows
 * whose options are the same (S6 asks for runs of S1, S2 and S2b) share one
 * run: it is planned once, for the first row that asks, and shown in all.
 */
import type { RunOptions } from '../../core/plan/run-options.js';
import type { Scenario, ScenarioVariant } from './scenario.js';
import { runKey, variantNotRunnable, variantRunOptions } from './variant-options.js';

export interface ScenarioSelection {
  scenario: Scenario;
  variants: ScenarioVariant[];
}

export interface RowRef {
  scenarioId: string;
  label: string;
}

export interface PlannedScenarioRun {
  /** 0-based position in the plan. */
  index: number;
  seed: number;
  /** The row the run is made for (its folder and replay command). */
  owner: RowRef;
  /** Every row that shows this run, the owner first. */
  rows: RowRef[];
  options: RunOptions;
  /** The command that makes this run again. */
  replay: string;
}

/** `S1/redis-fence`. */
export function rowId(r: RowRef): string {
  return `${r.scenarioId}/${r.label}`;
}

/** The command that runs one variant with one seed. */
export function replayCommand(scenarioId: string, label: string, seed: number): string {
  return `sudo npx fencecheck scenario run ${scenarioId} --variant ${label} --first-seed ${seed}`;
}

/** Runs go under `<runsDir>/<scenario id>/<scenario>-<variant>-s<seed>/<timestamp>/`. */
export function planScenarioRuns(
  selection: readonly ScenarioSelection[],
  seeds: readonly number[],
  runsDir: string,
  exists?: (path: string) => boolean,
): PlannedScenarioRun[] {
  const plan: PlannedScenarioRun[] = [];
  const byKey = new Map<string, PlannedScenarioRun>();
  for (const seed of seeds) {
    for (const { scenario, variants } of selection) {
      for (const variant of variants) {
        if (variantNotRunnable(scenario, variant, exists) !== undefined) continue;
        const options = variantRunOptions(scenario, variant, seed, `${runsDir}/${scenario.id}`);
        const ref = { scenarioId: scenario.id, label: variant.label };
        const key = runKey(options);
        const same = byKey.get(key);
        if (same) {
          same.rows.push(ref);
          continue;
        }
        const run: PlannedScenarioRun = { index: plan.length, seed, owner: ref, rows: [ref], options, replay: replayCommand(scenario.id, variant.label, seed) };
        byKey.set(key, run);
        plan.push(run);
      }
    }
  }
  return plan;
}
