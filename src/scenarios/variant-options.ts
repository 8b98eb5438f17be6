/**
 * A scenario variant and a seed as the RunOptions of one run (pure).
 *
 * Every scenario run is short and small so that all of them fit in about a
 * quarter of an hour on a 2-core machine: 12 s of workload, 2 clients, a
 * 1 s TTL, faults scripted from the second second on. The seed changes only
 * the clients' plans (think times); the fault timeline is the script's.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { DEFAULTS, type RunOptions } from '../../core/plan/run-options.js';
import type { FaultKind } from '../../core/generator/faults/registry.js';
import type { Scenario, ScenarioVariant } from './scenario.js';
import { notApplicable } from '../../core/vocabulary.js';

/** What every scenario run shares unless its variant says otherwise. */
export const SCENARIO_BASE = {
  workload: 'lock-counter',
  clients: 2,
  ttlMs: 1000,
  holdMs: 300,
  rate: 3,
  timeLimitS: 12,
  recoverMs: 1000,
  callTimeoutMs: 1000,
} as const satisfies Partial<RunOptions>;

/** The run's folder name: `S2b-redis-cas-unique-s3`. */
export function runName(scenario: Scenario, variant: ScenarioVariant, seed: number): string {
  return `${scenario.id}-${variant.label}-s${seed}`;
}

export function variantRunOptions(scenario: Scenario, variant: ScenarioVariant, seed: number, resultsDir: string): RunOptions {
  const script = structuredClone(variant.options.script);
  return {
    ...DEFAULTS,
    ...SCENARIO_BASE,
    ...variant.options,
    // The faults the script uses, for the record (test.json, the report's header); the script decides.
    nemesis: faultKinds(script.map((w) => w.fault)),
    script,
    seed,
    resultsDir,
    name: runName(scenario, variant, seed),
  };
}

/** Why a variant cannot run (the scenario is not reproduced, a program it needs is not built, or the combination does not apply), else undefined. */
export function variantNotRunnable(scenario: Scenario, variant: ScenarioVariant, exists: (path: string) => boolean = existsSync): string | undefined {
  if (scenario.notReproduced !== undefined) return `not reproduced: ${scenario.notReproduced}`;
  const needs = variant.requires;
  if (needs !== undefined && !exists(needs.program)) return `not built: ${relative(projectRoot(), needs.program)} is missing (${needs.hint})`;
  const o = variant.options;
  const why = notApplicable(
    o.backend,
    o.resource,
    o.script.map((w) => w.fault),
    true,
  );
  return why === undefined ? undefined : `not applicable: ${why}`;
}

/**
 * Two variants (of any scenarios) whose runs would be the same run: the same
 * options but for the name. S6 compares runs of S1, S2 and S2b; they are run
 * once and shown in every row that asks for them.
 */
export function runKey(options: RunOptions): string {
  const { name: _name, resultsDir: _dir, ...rest } = options;
  return JSON.stringify(sortKeys(rest));
}

function faultKinds(kinds: readonly FaultKind[]): FaultKind[] {
  return [...new Set(kinds)];
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  );
}
