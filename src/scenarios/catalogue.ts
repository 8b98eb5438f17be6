/**
 * Every named scenario, in debate order, and lookups by id and variant label.
 * The scenarios themselves are data in client-, redlock-, sentinel-,
 * service-, etcd-mutex- and consensus-scenarios.ts.
 */
import { UsageError } from '../../core/errors.js';
import { S1, S2, S2B, S6, S6B } from './client-scenarios.js';
import { S10, S3, S4, S5 } from './redlock-scenarios.js';
import type { Scenario, ScenarioVariant } from './scenario.js';
import { S7 } from './sentinel-scenarios.js';
import { S11 } from './etcd-mutex-scenarios.js';
import { S8, S9 } from './service-scenarios.js';
import { S12, S13, S14, S15, S16 } from './consensus-scenarios.js';

export const SCENARIOS: readonly Scenario[] = [S1, S2, S2B, S3, S4, S5, S6, S6B, S7, S8, S9, S10, S11, S12, S13, S14, S15, S16];

/** A scenario by id, case-insensitive (`s2b` is S2b). */
export function findScenario(id: string, catalogue: readonly Scenario[] = SCENARIOS): Scenario {
  const found = catalogue.find((s) => s.id.toLowerCase() === id.toLowerCase());
  if (!found)
    throw new UsageError(`Expected a scenario among ${catalogue.map((s) => s.id).join(', ')}, got \`${id}\``, 'List them with `fencecheck scenario list`.');
  return found;
}

/** The variants of a scenario with these labels (all when none are given). */
export function selectVariants(scenario: Scenario, labels: readonly string[]): ScenarioVariant[] {
  if (labels.length === 0) return scenario.variants;
  return labels.map((label) => {
    const v = scenario.variants.find((x) => x.label === label);
    if (!v)
      throw new UsageError(`Expected \`--variant\` to be one of ${scenario.variants.map((x) => x.label).join(', ')} for ${scenario.id}, got \`${label}\``);
    return v;
  });
}
