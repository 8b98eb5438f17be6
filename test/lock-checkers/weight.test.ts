/** The weight of a silence: the exact rule of three, and its wording. */
import { describe, expect, it } from 'vitest';
import { formatPercent, formatWeight, ruledOutRate } from '../../core/checkers/lock/weight.js';

describe('the weight of no violation', () => {
  it('is 1 - 0.05^(1/N): 95 % for one try, about 3/N for many', () => {
    expect(ruledOutRate(1)).toBeCloseTo(0.95, 12);
    expect(ruledOutRate(5)).toBeCloseTo(0.4507, 4);
    expect(ruledOutRate(100)).toBeCloseTo(0.0295, 4);
    // The rule of three: N · bound tends to −ln 0.05 ≈ 2.996.
    expect(1000 * ruledOutRate(1000)!).toBeCloseTo(-Math.log(0.05), 2);
    // With N failure-free tries at the bound, the chance of seeing none is exactly 5 %.
    for (const n of [1, 3, 17, 250]) expect((1 - ruledOutRate(n)!) ** n).toBeCloseTo(0.05, 12);
    expect(ruledOutRate(0)).toBeNull();
    expect(ruledOutRate(2.5)).toBeNull();
  });

  it('prints two significant digits', () => {
    expect(formatPercent(0.95)).toBe('95 %');
    expect(formatPercent(ruledOutRate(100)!)).toBe('3.0 %');
    expect(formatPercent(0.029)).toBe('2.9 %');
    expect(formatPercent(0.002991)).toBe('0.30 %');
    expect(formatPercent(0.4507)).toBe('45 %');
  });

  it('says tries, dangerous moments and the rate ruled out', () => {
    expect(formatWeight(20, 57)).toBe(
      'no violation in 20 tries, 57 dangerous moments tested: a failure that shows in at least 14 % of tries would have been found with 95 % confidence',
    );
    expect(formatWeight(1, 1, 'run')).toBe(
      'no violation in 1 run, 1 dangerous moment tested: a failure that shows in at least 95 % of runs would have been found with 95 % confidence',
    );
    expect(formatWeight(0, 0)).toBe('no tested try: nothing ruled out');
  });
});
