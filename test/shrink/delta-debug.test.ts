/**
 * Shrinking with fake oracles: ddmin finds the smallest failing subset, and
 * the plan shrinks to the choices the failure needs (and no further), within
 * the candidate budget; a failure that needs everything keeps everything; a
 * clock jump on several nodes loses the nodes it does not need.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ddmin, describeShrunk, shrinkPlan, type ShrinkPlan } from '../../src/shrink/delta-debug.js';
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import { testSeed } from '../support/seed.js';

const pause = (at: number, on?: 'holder-read' | 'acquire'): FaultWindow => ({
  at,
  until: at + 2400,
  fault: 'client-pause',
  target: { kind: 'holder' },
  ...(on ? { trigger: { on, withinMs: 10_000 } } : {}),
});
const kill = (at: number): FaultWindow => ({ at, until: at + 3000, fault: 'kill', target: { kind: 'leader' } });
const start: ShrinkPlan = { script: [kill(500), pause(1000, 'acquire'), pause(2000, 'holder-read'), kill(6000)], clients: 5, timeLimitS: 20, rate: 2 };

/** Fails when a holder-read pause of at least 1.1 s remains, with at least 2 clients and 3 s of run. */
const needsHolderRead = async (p: ShrinkPlan): Promise<boolean> =>
  p.clients >= 2 && p.timeLimitS >= 3 && p.script.some((w) => w.fault === 'client-pause' && w.trigger?.on === 'holder-read' && w.until - w.at >= 1100);

describe('ddmin', () => {
  it('finds a smallest failing subset for random needs', async () => {
    const seed = testSeed('ddmin', 'test/shrink/delta-debug.test.ts');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.array(fc.nat(11), { minLength: 1, maxLength: 3 }), async (n, need) => {
        const items = Array.from({ length: n }, (_, i) => i);
        const needed = [...new Set(need.filter((x) => x < n))];
        if (needed.length === 0) return;
        const got = await ddmin(items, async (s) => needed.every((x) => s.includes(x)));
        expect([...got].sort((a, b) => a - b)).toEqual([...needed].sort((a, b) => a - b));
      }),
      { seed, numRuns: 200 },
    );
  });
});

describe('shrinking a plan', () => {
  it('keeps only what the failure needs: one window (its trigger), two clients, the shortest run', async () => {
    const calls: ShrinkPlan[] = [];
    const r = await shrinkPlan(start, async (p) => (calls.push(p), needsHolderRead(p)), 200);
    expect(r.plan.script).toHaveLength(1);
    expect(r.plan.script[0]!.trigger?.on).toBe('holder-read');
    expect(r.plan.script[0]!.until - r.plan.script[0]!.at).toBeGreaterThanOrEqual(1100);
    expect(r.plan.script[0]!.until - r.plan.script[0]!.at).toBeLessThan(2400);
    expect(r.plan.clients).toBe(2);
    // The window from 2 s keeps 1.2 s (halved once): the run ends a second after it, rounded up (5 s); halving again would cut it.
    expect(r.plan.timeLimitS).toBe(5);
    expect(r.plan.rate).toBe(0.5);
    expect(describeShrunk(r.plan)).toBe('1 fault event, 2 clients, 5 s');
    expect(r.candidates).toBe(calls.length);
    expect(r.exhausted).toBe(false);
    // Every accepted step was a candidate the oracle said fails.
    for (const s of r.steps) expect(await needsHolderRead(s.plan)).toBe(true);
  });

  it('never asks the oracle the same candidate twice, and stops at the candidate budget', async () => {
    const seen = new Set<string>();
    const r = await shrinkPlan(
      start,
      async (p) => {
        const k = JSON.stringify(p);
        expect(seen.has(k)).toBe(false);
        seen.add(k);
        return needsHolderRead(p);
      },
      5,
    );
    expect(r.candidates).toBe(5);
    expect(r.exhausted).toBe(true);
  });

  it('takes nodes off a clock jump on several, down to what the failure needs, and counts each node as a fault event', async () => {
    const jump: FaultWindow = { at: 1000, until: 3000, fault: 'clock', target: { kind: 'nodes', nodes: ['n1', 'n2', 'n3', 'n4', 'n5'] }, offsetMs: 3000 };
    const plan: ShrinkPlan = { script: [jump], clients: 3, timeLimitS: 6, rate: 2 };
    expect(describeShrunk(plan)).toBe('5 fault events, 3 clients, 6 s');
    // Fails while a majority (three of five) jumps: Redlock's quorum.
    const majority = async (p: ShrinkPlan): Promise<boolean> =>
      p.script.some((w) => w.fault === 'clock' && w.target.kind === 'nodes' && w.target.nodes.length >= 3);
    const r = await shrinkPlan(plan, majority, 200);
    // The oracle does not need the length either: halved down to the floor.
    expect(r.plan.script).toHaveLength(1);
    expect(r.plan.script[0]!.target).toEqual({ kind: 'nodes', nodes: ['n1', 'n2', 'n3'] });
    expect(describeShrunk(r.plan)).toMatch(/^3 fault events, 2 clients, \d+ s$/);
    // Down to one node it is a node victim again, as a script of one node says it.
    const any = await shrinkPlan(plan, async (p) => p.script.some((w) => w.fault === 'clock'), 200);
    expect(any.plan.script[0]!.target).toEqual({ kind: 'node', node: 'n1' });
  });

  it('keeps a plan whose every choice is needed', async () => {
    const minimal: ShrinkPlan = { script: [pause(0, 'holder-read')], clients: 2, timeLimitS: 2, rate: 0.5 };
    const exact = async (p: ShrinkPlan): Promise<boolean> => JSON.stringify(p) === JSON.stringify(minimal);
    const r = await shrinkPlan(minimal, exact);
    expect(r.plan).toEqual(minimal);
    expect(r.steps).toEqual([]);
  });
});
