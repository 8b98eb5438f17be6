/** Wilson's score interval and the seeds' t interval against published values. */
import { describe, expect, it } from 'vitest';
import { meanInterval, perThousand, wilsonInterval } from '../../core/checkers/lock/rate-interval.js';

describe('rate intervals', () => {
  it('Wilson: 0 of 100 keeps an upper bound near the rule of three, never [0, 0]', () => {
    const i = wilsonInterval(0, 100);
    expect(i.low).toBe(0);
    expect(i.high).toBeCloseTo(0.037, 3);
  });

  it('Wilson: 5 of 1,000 (Newcombe 1998, method 3) and 1 of 2', () => {
    const i = wilsonInterval(5, 1000);
    expect(i.low).toBeCloseTo(0.00214, 4);
    expect(i.high).toBeCloseTo(0.01166, 4);
    expect(wilsonInterval(1, 2).low).toBeCloseTo(0.0945, 3);
  });

  it('Wilson with nothing measured is the whole range', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it("t interval of five seeds' rates, clamped at 0; none under two values", () => {
    const i = meanInterval([0.006, 0.008, 0.005, 0.009, 0.007])!;
    expect(i.mean).toBeCloseTo(0.007, 6);
    // s = 0.00158, t(4) = 2.776: half width 0.00196.
    expect(i.low).toBeCloseTo(0.00504, 4);
    expect(i.high).toBeCloseTo(0.00896, 4);
    expect(meanInterval([0, 0, 0.01])!.low).toBe(0);
    expect(meanInterval([0.01])).toBeUndefined();
  });

  it('per 1,000 to one decimal', () => {
    expect(perThousand(0.00733)).toBe('7.3');
    expect(perThousand(0)).toBe('0.0');
  });
});
