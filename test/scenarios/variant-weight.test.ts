/** A safe scenario row states its weight among its notes: its tested seeds as tries, their double holds and refusals as dangerous moments. */
import { describe, expect, it } from 'vitest';
import { findScenario, selectVariants } from '../../src/scenarios/catalogue.js';
import { summarizeVariant } from '../../src/scenarios/summarize-variant.js';
import { nemesisOps, QUIET, scenarioRunOf } from './fixtures.js';

const s1 = findScenario('S1');
const [redisFence] = selectVariants(s1, ['redis-fence']);

describe('the weight of a safe scenario row', () => {
  it('is a note when every seed is valid and tested, and absent otherwise', () => {
    // Each seed: one double hold the fence made harmless and one more refusal, so 3 dangerous moments (the product's evidence, not written here).
    const tested = [1, 2, 3].map((seed) => scenarioRunOf(seed, { fenced: 1, refusals: 1, clean: 18 }, nemesisOps(2), 2));
    expect(tested.map((r) => [r.summary.outcome, r.summary.evidence?.protection])).toEqual([1, 2, 3].map(() => ['safe', { doubleHolds: 1, refusals: 2 }]));
    const row = summarizeVariant(s1, redisFence!, [1, 2, 3], tested);
    expect(row.cell.outcome).toBe('safe');
    expect(row.notes).toContain(
      'no violation in 3 runs, 9 dangerous moments tested: a failure that shows in at least 63 % of runs would have been found with 95 % confidence',
    );
    const untested = summarizeVariant(s1, redisFence!, [1], [scenarioRunOf(1, QUIET, nemesisOps(2), 2)]);
    expect(untested.notes.some((n) => n.startsWith('no violation in'))).toBe(false);
  });
});
