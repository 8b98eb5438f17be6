/**
 * The aimed schedule: the seeded windows of an aimed fault kind wait for their
 * lock event, only as long as their planned length still fits before the next
 * window (or the time limit); windows cut at the limit, or left no room, are
 * dropped; the other kinds' windows are untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { aimSchedule, splitAim } from '../../core/generator/aimed-schedule.js';
import { nemesisSchedule, type NemesisOptions } from '../../core/generator/nemesis-schedule.js';
import type { FaultKind } from '../../core/generator/faults/registry.js';
import { testSeed } from '../support/seed.js';

const options = (o: Partial<NemesisOptions> = {}): NemesisOptions => ({
  faults: ['client-pause', 'kill'],
  intervalMs: 1000,
  durationMs: 2000,
  leaseMs: 1000,
  targets: { nodes: ['n1', 'n2', 'n3'] },
  ...o,
});
const lengthOf =
  (o: NemesisOptions) =>
  (f: FaultKind): number =>
    f === 'client-pause' ? Math.max(o.durationMs, 2 * o.leaseMs!) : o.durationMs;

describe('aimSchedule', () => {
  it("the README's main job: one pause of 4 s aimed at holder-read, waiting at most until it still ends in the 5 s main phase", () => {
    const o = options({ faults: ['client-pause'], intervalMs: 200, durationMs: 4000 });
    const seeded = nemesisSchedule(o, 1, 5000);
    // The seeded schedule has a second pause cut at the limit (600 ms, no longer past the lease): dropped.
    expect(seeded.map((w) => [w.at, w.until])).toEqual([
      [200, 4200],
      [4400, 5000],
    ]);
    expect(aimSchedule(seeded, { 'client-pause': 'holder-read' }, { timeLimitMs: 5000, lengthMs: lengthOf(o), leaseMs: 1000 })).toEqual([
      { at: 200, until: 4200, fault: 'client-pause', target: { kind: 'holder' }, trigger: { on: 'holder-read', withinMs: 800 } },
    ]);
  });

  it('aims only the named kinds; lease-ending gets a lead of a fifth of the lease', () => {
    const o = options();
    const seeded = nemesisSchedule(o, 3, 20_000);
    const aimed = aimSchedule(seeded, { kill: 'lease-ending' }, { timeLimitMs: 20_000, lengthMs: lengthOf(o), leaseMs: 1000 });
    for (const w of aimed) {
      if (w.fault === 'kill') expect(w.trigger).toMatchObject({ on: 'lease-ending', leadMs: 200 });
      else expect(seeded).toContainEqual(w);
    }
    expect(aimed.some((w) => w.fault === 'kill')).toBe(true);
  });

  it('every aimed window is whole and, fired as late as it may wait, still ends before the next window and the limit', () => {
    const seed = testSeed('aimed-schedule whole windows', 'test/generators/aimed-schedule.test.ts');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 100, max: 5000 }),
        fc.integer({ min: 1000, max: 30_000 }),
        (s, interval, duration, limit) => {
          const o = options({ intervalMs: interval, durationMs: duration });
          const aimed = aimSchedule(
            nemesisSchedule(o, s, limit),
            { 'client-pause': 'holder-read', kill: 'grant' },
            { timeLimitMs: limit, lengthMs: lengthOf(o), leaseMs: 1000 },
          );
          aimed.forEach((w, i) => {
            expect(w.until - w.at).toBe(lengthOf(o)(w.fault));
            const latestEnd = w.at + w.trigger!.withinMs + (w.until - w.at);
            expect(w.trigger!.withinMs).toBeGreaterThan(0);
            expect(latestEnd).toBeLessThanOrEqual(aimed[i + 1]?.at ?? limit);
          });
        },
      ),
      { seed, numRuns: 300 },
    );
  });
});

describe('splitAim', () => {
  it('reads fault@event, and refuses an unknown event naming the events', () => {
    expect(splitAim('client-pause@holder-read', 'x')).toEqual({ fault: 'client-pause', on: 'holder-read' });
    expect(splitAim('kill', 'x')).toEqual({ fault: 'kill' });
    expect(() => splitAim('client-pause@lunch', 'client-pause@lunch')).toThrow(UsageError);
    expect(() => splitAim('client-pause@lunch', 'client-pause@lunch')).toThrow(/acquire, grant, mark, holder-read, write, held, lease-ending/);
  });
});
