/** The run's phases as data: their order and times, no final read for the mutex, bad options refused. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { planPhases } from '../../core/generator/phases.js';

describe('planPhases', () => {
  it('main, then healing, recovery, then final reads whose client connects during the recovery', () => {
    expect(planPhases({ timeLimitMs: 60_000, recoverMs: 10_000, finalReads: true })).toEqual([
      { name: 'main', startMs: 0, endMs: 60_000 },
      { name: 'heal', startMs: 60_000 },
      { name: 'recover', startMs: 60_000, endMs: 70_000 },
      { name: 'final-reads', startMs: 70_000, connectDuring: 'recover' },
    ]);
  });

  it('a run without a resource to read (the mutex) has no final-reads phase', () => {
    expect(planPhases({ timeLimitMs: 1_000, recoverMs: 0, finalReads: false }).map((p) => p.name)).toEqual(['main', 'heal', 'recover']);
  });

  it('every phase survives JSON (no Infinity): a plan is stored as plan.json', () => {
    const phases = planPhases({ timeLimitMs: 1_000, recoverMs: 500, finalReads: true });
    expect(JSON.parse(JSON.stringify(phases))).toEqual(phases);
  });

  it('rejects bad options', () => {
    expect(() => planPhases({ timeLimitMs: 0, recoverMs: 0, finalReads: true })).toThrow(
      new UsageError('Expected `timeLimitMs` to be a positive number, got `0`'),
    );
    expect(() => planPhases({ timeLimitMs: 10, recoverMs: -1, finalReads: true })).toThrow(UsageError);
  });
});
