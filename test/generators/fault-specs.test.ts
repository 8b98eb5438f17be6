/**
 * The fault kinds' pure halves (core/generator/faults/): each kind's spec is
 * filed under its own name, aims only at lock events the runner knows, and
 * every window it makes (seeded, hunted) is one `--script` reads back to the
 * same window, for every kind, with the seed printed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FaultWindow, WindowOf } from '../../core/generator/faults/registry.js';
import type { ClockWindow } from '../../core/generator/faults/clock.js';
import { FAULT_SPECS, faultSpec, FAULT_KINDS } from '../../core/generator/faults/registry.js';
import { nemesisSchedule } from '../../core/generator/nemesis-schedule.js';
import { TRIGGER_EVENTS } from '../../core/generator/fault-window.js';
import { faultEvents } from '../../core/generator/fault-events.js';
import { parseScript, scriptText } from '../../core/generator/parse-script.js';
import { PARTITION_SHAPES, windowOf } from '../../src/hunt/hunt-windows.js';
import { Prng } from '../../core/random/prng.js';
import { testSeed } from '../support/seed.js';

describe('the fault kinds registry', () => {
  it('holds every kind under its own name, aimed only at known events', () => {
    expect(Object.keys(FAULT_SPECS).sort()).toEqual([...FAULT_KINDS].sort());
    for (const kind of FAULT_KINDS) {
      const spec = faultSpec(kind);
      expect(spec.kind).toBe(kind);
      expect(spec.what.length).toBeGreaterThan(10);
      expect(spec.huntEvents).toContain('time');
      for (const on of spec.huntEvents) expect(['time', ...TRIGGER_EVENTS]).toContain(on);
    }
  });

  it('makes windows of its own kind that --script reads back unchanged (seeded and hunted)', () => {
    const seed = testSeed('fault-specs round trip', 'test/generators/fault-specs.test.ts');
    const rng = new Prng(seed).fork('cases');
    for (const kind of FAULT_KINDS) {
      for (let i = 0; i < 20; i++) {
        const nodes = rng.pick([['n1'], ['n1', 'n2', 'n3'], ['r1', 'r2', 'r3', 'r4', 'r5']]);
        const seeded = nemesisSchedule({ faults: [kind], intervalMs: 500, durationMs: 1500, targets: { nodes }, leaseMs: 1000 }, rng.int(0, 1e6), 10_000);
        expect(seeded.length, `${kind} seed ${seed}`).toBeGreaterThan(0);
        for (const w of seeded) expect(w.fault).toBe(kind);
        const on = rng.pick(faultSpec(kind).huntEvents);
        const hunted = windowOf({ fault: kind, on }, { timeLimitMs: 8000, ttlMs: 1000, nodes, partitionShapes: PARTITION_SHAPES }, new Prng(rng.int(0, 1e6)));
        expect(hunted.fault).toBe(kind);
        expect(hunted.trigger?.on ?? 'time').toBe(on);
        const windows = [...seeded, hunted];
        expect(parseScript(scriptText(windows)), `${kind} seed ${seed}`).toEqual(windows);
      }
    }
  });

  it('a hunt jumps the clocks of several servers at once about half the time, each set without repeats, the drawn node first', () => {
    const nodes = ['r1', 'r2', 'r3', 'r4', 'r5'];
    const seed = testSeed('clock node sets', 'test/generators/fault-specs.test.ts');
    const rng = new Prng(seed).fork('clock');
    const targets = Array.from(
      { length: 400 },
      () => windowOf({ fault: 'clock', on: 'held' }, { timeLimitMs: 8000, ttlMs: 1000, nodes }, new Prng(rng.int(0, 1e6))).target,
    );
    const sets = targets.flatMap((t) => (t.kind === 'nodes' ? [t.nodes] : []));
    expect(sets.length, `seed ${seed}`).toBeGreaterThan(150);
    expect(sets.length, `seed ${seed}`).toBeLessThan(250);
    for (const s of sets) {
      expect(new Set(s).size).toBe(s.length);
      expect(s.length).toBeGreaterThanOrEqual(2);
      expect(s.every((n) => nodes.includes(n))).toBe(true);
    }
    // Every size from two to all five is drawn; a single server never gets a set.
    expect(new Set(sets.map((s) => s.length))).toEqual(new Set([2, 3, 4, 5]));
    const single = windowOf({ fault: 'clock', on: 'held' }, { timeLimitMs: 8000, ttlMs: 1000, nodes: ['n1'] }, new Prng(seed));
    expect(single.target.kind).not.toBe('nodes');
  });

  it("reads a script's set of nodes, and refuses an empty one or a repeat, naming the field", () => {
    const jump = (target: unknown) => JSON.stringify([{ at: 0, until: 10, fault: 'clock', offsetMs: 500, target }]);
    expect(parseScript(jump({ kind: 'nodes', nodes: ['a', 'b'] }))[0]!.target).toEqual({ kind: 'nodes', nodes: ['a', 'b'] });
    expect(() => parseScript(jump({ kind: 'nodes', nodes: [] }))).toThrow(/window 1 `target.nodes` to be a non-empty array of server names/);
    expect(() => parseScript(jump({ kind: 'nodes', nodes: ['a', 'a'] }))).toThrow(/window 1 `target.nodes` to be server names without repeats/);
    // Only a clock jump takes a set: a kill names one server.
    expect(() => parseScript(JSON.stringify([{ at: 0, until: 10, fault: 'kill', target: { kind: 'nodes', nodes: ['a'] } }]))).toThrow(/window 1 `target`/);
  });

  it('counts a jump on a set of nodes as a fault event on each (what "M planned" counts beside the offsets struck)', () => {
    const jump = { at: 0, until: 10, fault: 'clock' as const, offsetMs: 500 };
    expect(
      faultEvents([
        { ...jump, target: { kind: 'nodes', nodes: ['a', 'b', 'c'] } },
        { ...jump, target: { kind: 'leader' } },
        { at: 0, until: 5, fault: 'kill', target: { kind: 'node', node: 'a' } },
      ]),
    ).toBe(5);
    expect(faultEvents([])).toBe(0);
  });

  it("refuses a window without its kind's own field, naming the field", () => {
    const without: Record<string, string> = { clock: 'offsetMs', loss: 'lossPercent', delay: 'link', evict: 'policy' };
    for (const [kind, field] of Object.entries(without)) {
      const text = JSON.stringify([{ at: 0, until: 10, fault: kind, target: kind === 'delay' ? { kind: 'holder' } : { kind: 'leader' } }]);
      expect(() => parseScript(text)).toThrow(new RegExp(`window 1 \`${field}\``));
    }
  });
});

describe('FaultWindow, derived from the specs', () => {
  it("is each kind's own window type: a clock window carries its offset, a kill window none", () => {
    // Both ways assignable (checked by npm test's typecheck of the tests): the union's clock member is clock.ts's own type.
    const fromSpec: WindowOf<'clock'> = { at: 0, until: 1, fault: 'clock', target: { kind: 'leader' }, offsetMs: 5 } satisfies ClockWindow;
    const fromUnion: ClockWindow = fromSpec;
    expect(fromUnion.offsetMs).toBe(5);
    expectTypeOf<WindowOf<'clock'>>().toHaveProperty('offsetMs');
    expectTypeOf<WindowOf<'kill'>>().not.toHaveProperty('offsetMs');
    expectTypeOf<FaultWindow['fault']>().toEqualTypeOf<(typeof FAULT_KINDS)[number]>();
  });

  it("leaves no circle: a kind's spec imports neither the schedule nor the registry", () => {
    const dir = 'core/generator/faults';
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !['registry.ts', 'fault-of-op.ts'].includes(f))) {
      const text = readFileSync(`${dir}/${file}`, 'utf8');
      expect(text, file).not.toMatch(/^import .* from '(\.\.\/nemesis-schedule|\.\/registry)\.js';$/m);
    }
    expect(readFileSync('core/generator/fault-window.ts', 'utf8')).not.toMatch(/^import .* from '.*(nemesis-schedule|faults\/).*';$/m);
  });
});
