import { describe, expect, it } from 'vitest';
import { assertPlanSize, MAX_PLANNED_RUNS, seedRange } from '../../src/compare/plan-bounds.js';

describe('plan bounds', () => {
  it('takes a plan of exactly the bound and refuses one run more, naming both numbers', () => {
    expect(() => assertPlanSize(MAX_PLANNED_RUNS, 'x')).not.toThrow();
    expect(() => assertPlanSize(MAX_PLANNED_RUNS + 2, '2 cells x 50001 seeds')).toThrow(/at most 100,000 runs, got 2 cells x 50001 seeds \(100,002 runs\)/);
  });

  it('seedRange refuses a last seed past 2^53 - 1 without rounding, and keeps the last safe one', () => {
    expect(seedRange(Number.MAX_SAFE_INTEGER, 1)).toEqual([Number.MAX_SAFE_INTEGER]);
    expect(() => seedRange(Number.MAX_SAFE_INTEGER, 2)).toThrow(/at most 2\^53 - 1/);
    expect(seedRange(5, 3)).toEqual([5, 6, 7]);
  });
});
