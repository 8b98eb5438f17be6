/** The run's phases as data, and which phase a virtual instant is in, at every boundary. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { phaseAt, planPhases } from '../../core/generator/phases.js';

describe('planPhases', () => {
  it('main, an instant of healing, recovery, then final reads', () => {
    expect(planPhases({ timeLimitMs: 60_000, recoverMs: 10_000 })).toEqual([
      { name: 'main', startMs: 0, endMs: 60_000, workload: true, nemesis: true },
      { name: 'heal', startMs: 60_000, endMs: 60_000, workload: false, nemesis: false, action: 'heal-all' },
      { name: 'recover', startMs: 60_000, endMs: 70_000, workload: false, nemesis: false },
      { name: 'final-reads', startMs: 70_000, endMs: Infinity, workload: false, nemesis: false, action: 'final-reads' },
    ]);
  });

  it.each([
    [0, 'main'],
    [59_999.999, 'main'],
    [60_000, 'heal'],
    [60_000.001, 'recover'],
    [69_999, 'recover'],
    [70_000, 'final-reads'],
    [1e12, 'final-reads'],
  ])('at %d ms the run is in %s', (t, name) => {
    expect(phaseAt(planPhases({ timeLimitMs: 60_000, recoverMs: 10_000 }), t).name).toBe(name);
  });

  it('a heal with a duration, and no recovery', () => {
    const phases = planPhases({ timeLimitMs: 1_000, healMs: 200, recoverMs: 0 });
    expect([999, 1_000, 1_199, 1_200, 1_201].map((t) => phaseAt(phases, t).name)).toEqual(['main', 'heal', 'heal', 'recover', 'final-reads']);
  });

  it('rejects a time before the start and bad options', () => {
    const phases = planPhases({ timeLimitMs: 1_000, recoverMs: 0 });
    expect(() => phaseAt(phases, -1)).toThrow(RangeError);
    expect(() => phaseAt(phases, Number.NaN)).toThrow(RangeError);
    expect(() => planPhases({ timeLimitMs: 0, recoverMs: 0 })).toThrow(new UsageError('Expected `timeLimitMs` to be a positive number, got `0`'));
    expect(() => planPhases({ timeLimitMs: 10, recoverMs: -1 })).toThrow(UsageError);
  });
});
