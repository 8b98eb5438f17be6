/**
 * Named scenarios: the arguments of the Redlock debate (Kleppmann, "How to do
 * distributed locking", 2016; antirez, "Is Redlock safe?", 2016) as runs that
 * can be repeated. A scenario is data: the claim, what each side predicts,
 * how it is set up, and one or more variants, each a set of run options with
 * a *scripted* fault timeline (not the seeded random schedule), so that the
 * fault the argument is about is sure to happen, early, in a short run.
 *
 * Each variant may say what outcome to expect where the two sides agree on
 * it, separately for the two properties a run can break:
 *
 *   lock  the lock service granted overlapping holds (double holds, or a
 *         history the mutex model cannot linearize);
 *   data  the protected resource was damaged (lost or phantom updates,
 *         stale writes accepted, interleaved sections, token regressions).
 *
 * They differ: a fence keeps the data safe while the lock itself was held
 * twice, which is the whole point of fencing.
 */
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import type { RunOptions } from '../../core/plan/run-options.js';

export type Safety = 'safe' | 'unsafe';

/** What the debate agrees a variant shows (only where it does agree). */
export interface Expectation {
  lock?: Safety;
  data?: Safety;
  /** Why, in one sentence. */
  why: string;
}

/** The options a variant sets; the rest come from SCENARIO_BASE and the seed. */
export type VariantOptions = Partial<Omit<RunOptions, 'seed' | 'resultsDir' | 'name' | 'script'>> &
  Pick<RunOptions, 'backend' | 'resource'> & { script: FaultWindow[] };

export interface ScenarioVariant {
  /** Kebab-case, unique within the scenario: the results folder and `--variant`. */
  label: string;
  /** What this variant changes, for a person. */
  text: string;
  options: VariantOptions;
  expected?: Expectation;
  /**
   * What a seed must show before its verdict counts: `lost-grant` (S7) means
   * a grant lost in a failover (history-facts.ts), the lock held twice, or
   * the protection refusing grants (WAIT's not-replicated, min-replicas'
   * NOREPLICAS). A seed with none of them proved nothing: its safe verdicts
   * become unknown ("untested is not safe").
   */
  evidence?: 'lost-grant';
  /** A program the variant runs that may not be built here (a reference client): without it the variant is not run, and says why. */
  requires?: { program: string; hint: string };
}

export interface Scenario {
  /** `S1`, `S2b`, …: what `fencecheck scenario run` takes. */
  id: string;
  title: string;
  /** The argument, as one of the sides states it. */
  claim: string;
  predictions: { kleppmann: string; antirez: string };
  /** How the run is set up, and why this way (timings, which fault stands in for what). */
  setup: string;
  /** The README recipe: "to see …, run `sudo npx fencecheck scenario run S3`". */
  recipe: string;
  variants: ScenarioVariant[];
  /** Set when the scenario cannot be run here: the exact reason. Its variants are listed, never run. */
  notReproduced?: string;
}
