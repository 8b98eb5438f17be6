/**
 * Client plans: pinned sections for one seed, determinism, independence of
 * clients and of think from hold times, the distributions, values, options.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { clientPlan, planPrefix, type ClientPlanOptions } from '../../core/generator/client-plan.js';
import { testSeed } from '../support/seed.js';

const fenced: ClientPlanOptions = { workload: 'fenced-write', rate: 2, hold: { min: 100, max: 300 } };

describe('clientPlan', () => {
  const seed = testSeed('client-plan', 'test/generators');

  it('pins the first sections of client 0 for seed 42', () => {
    expect(planPrefix(clientPlan(42, 0, fenced), 3)).toEqual([
      { client: 0, seq: 0, thinkMs: 340.26, holdMs: 270.358, value: 'p0-0' },
      { client: 0, seq: 1, thinkMs: 111.221, holdMs: 201.666, value: 'p0-1' },
      { client: 0, seq: 2, thinkMs: 89.506, holdMs: 192.028, value: 'p0-2' },
    ]);
  });

  it('same seed, same plan', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(16), (s, client) => {
        expect(planPrefix(clientPlan(s, client, fenced), 10)).toEqual(planPrefix(clientPlan(s, client, fenced), 10));
      }),
      { seed, numRuns: 100 },
    );
  });

  it("a client's plan does not depend on the other clients, and the hold setting leaves think times alone", () => {
    const alone = planPrefix(clientPlan(5, 3, fenced), 20);
    planPrefix(clientPlan(5, 2, fenced), 1000);
    expect(planPrefix(clientPlan(5, 3, fenced), 20)).toEqual(alone);
    const fixed = planPrefix(clientPlan(5, 3, { ...fenced, hold: 50 }), 20);
    expect(fixed.map((s) => s.thinkMs)).toEqual(alone.map((s) => s.thinkMs));
    expect(fixed.every((s) => s.holdMs === 50)).toBe(true);
    expect(planPrefix(clientPlan(5, 4, fenced), 20)).not.toEqual(alone);
  });

  it('think times average 1000/rate ms; holds stay in their range', () => {
    const sections = planPrefix(clientPlan(11, 0, { ...fenced, rate: 4 }), 20_000);
    const meanThink = sections.reduce((sum, s) => sum + s.thinkMs, 0) / sections.length;
    expect(meanThink).toBeGreaterThan(240);
    expect(meanThink).toBeLessThan(260);
    expect(sections.every((s) => s.holdMs >= 100 && s.holdMs <= 300 && s.thinkMs >= 0)).toBe(true);
  });

  it('fenced-write writes unique values; lock-counter and mutex decide theirs at run time', () => {
    const values = [0, 1, 2].flatMap((c) => planPrefix(clientPlan(1, c, fenced), 50).map((s) => s.value));
    expect(new Set(values).size).toBe(150);
    expect(values[51]).toBe('p1-1');
    expect(planPrefix(clientPlan(1, 0, { ...fenced, workload: 'lock-counter' }), 5).map((s) => s.value)).toEqual([null, null, null, null, null]);
    expect(planPrefix(clientPlan(1, 0, { ...fenced, workload: 'mutex' }), 1)[0]!.value).toBeNull();
  });

  it('rejects bad options as the CLI words them', () => {
    expect(() => clientPlan(1, 0, { ...fenced, rate: 0 })).toThrow(new UsageError('Expected `rate` to be a positive number, got `0`'));
    expect(() => clientPlan(1, 0, { ...fenced, hold: { min: 5, max: 1 } })).toThrow(/`hold.max` to be at least `hold.min` \(5\), got `1`/);
    expect(() => clientPlan(1, 0, { ...fenced, hold: -1 })).toThrow(/`hold` to be a non-negative number/);
    expect(() => clientPlan(1, -1, fenced)).toThrow(RangeError);
  });
});
