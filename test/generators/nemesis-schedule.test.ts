/**
 * The nemesis schedule: a pinned schedule for one seed, the exact rhythm
 * (quiet interval, fault, quiet interval, ...) and clipping at the limit,
 * the default pause longer than the lease, symbolic and resolved targets,
 * partition shapes, determinism, and option errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { blockedPairs } from '../../core/generator/grudge.js';
import { nemesisSchedule, type NemesisOptions } from '../../core/generator/nemesis-schedule.js';
import { FAULT_KINDS, type FaultKind } from '../../core/generator/faults/registry.js';
import { GRUDGE_KINDS } from '../../core/generator/fault-window.js';
import { testSeed } from '../support/seed.js';

const three = ['n1', 'n2', 'n3'];
/** The fault sequence of seed 11 over 8 s for client-pause, partition, loss, computed before evict existed. */
const PINNED_MIX = ['loss', 'client-pause'];
const options = (o: Partial<NemesisOptions> = {}): NemesisOptions => ({
  faults: ['client-pause', 'server-pause', 'partition', 'kill', 'clock'],
  intervalMs: 10_000,
  durationMs: 5_000,
  leaseMs: 3_000,
  targets: { nodes: three },
  ...o,
});

describe('nemesisSchedule', () => {
  const seed = testSeed('nemesis-schedule', 'test/generators');

  it('pins the schedule of seed 7 over 60 s', () => {
    expect(nemesisSchedule(options(), 7, 60_000)).toEqual([
      { at: 10_000, until: 15_000, fault: 'server-pause', target: { kind: 'node', node: 'n2' } },
      { at: 25_000, until: 30_000, fault: 'kill', target: { kind: 'node', node: 'n3' } },
      { at: 40_000, until: 45_000, fault: 'clock', target: { kind: 'node', node: 'n2' }, offsetMs: 6_000 },
      // The pause would last 6 s (twice the lease); the main phase ends at 60 s.
      { at: 55_000, until: 60_000, fault: 'client-pause', target: { kind: 'holder' } },
    ]);
  });

  it('alternates exact quiet intervals and faults, and stays within the time limit', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 60_000 }),
        (s, interval, duration, limit) => {
          const windows = nemesisSchedule(options({ intervalMs: interval, durationMs: duration, leaseMs: undefined }), s, limit);
          let quietFrom = 0;
          for (const w of windows) {
            expect(w.at).toBe(quietFrom + interval);
            expect(w.until).toBe(Math.min(w.at + duration, limit));
            quietFrom = w.until;
          }
          // No room for another fault: the next one would start at or after the limit.
          expect(quietFrom + interval).toBeGreaterThanOrEqual(limit);
        },
      ),
      { seed, numRuns: 100 },
    );
  });

  it('same seed, same schedule; another seed, most likely another', () => {
    fc.assert(
      fc.property(fc.nat(), (s) => {
        const all = options({ faults: FAULT_KINDS, intervalMs: 100, durationMs: 50, targets: { nodes: ['a', 'b', 'c', 'd', 'e'] } });
        expect(nemesisSchedule(all, s, 20_000)).toEqual(nemesisSchedule(all, s, 20_000));
      }),
      { seed, numRuns: 50 },
    );
    expect(nemesisSchedule(options(), 1, 600_000)).not.toEqual(nemesisSchedule(options(), 2, 600_000));
  });

  it('a client pause targets the holder and outlasts the lease by default', () => {
    const pauses = (o: Partial<NemesisOptions>) => nemesisSchedule(options({ faults: ['client-pause'], ...o }), 1, 100_000);
    expect(pauses({})[0]).toEqual({ at: 10_000, until: 16_000, fault: 'client-pause', target: { kind: 'holder' } });
    expect(pauses({ leaseMs: 1_000 })[0]!.until).toBe(15_000);
    expect(pauses({ leaseMs: undefined })[0]!.until).toBe(15_000);
    expect(pauses({ pauseMs: 700 })[0]!.until).toBe(10_700);
  });

  it('server faults aim at the leader or a named node when told to', () => {
    const leader = nemesisSchedule(options({ faults: ['server-pause', 'kill'], targets: { nodes: three, server: 'leader' } }), 3, 100_000);
    expect(leader.map((w) => w.target)).toEqual(leader.map(() => ({ kind: 'leader' })));
    const named = nemesisSchedule(options({ faults: ['kill', 'delay', 'loss'], targets: { nodes: three, server: 'n3' } }), 3, 100_000);
    expect(named.filter((w) => w.fault !== 'delay').every((w) => w.target.kind === 'node' && w.target.node === 'n3')).toBe(true);
    // A delay slows a client's link (the holder's, to the resource): what the runner always did with it, now said by the plan.
    expect(named.filter((w) => w.fault === 'delay').every((w) => w.target.kind === 'holder' && w.link === 'resource' && w.delayMs === 500)).toBe(true);
    expect(named.filter((w) => w.fault === 'loss').every((w) => w.lossPercent === 20)).toBe(true);
  });

  it('partitions carry their shape, with the grudge when the nodes decide it', () => {
    const five = ['n1', 'n2', 'n3', 'n4', 'n5'];
    const windows = nemesisSchedule(options({ faults: ['partition'], intervalMs: 10, durationMs: 10, targets: { nodes: five } }), 4, 10_000);
    const shapes = new Set(windows.map((w) => (w.target.kind === 'partition' ? w.target.grudgeKind : 'none')));
    expect([...shapes].sort()).toEqual([...GRUDGE_KINDS].sort());
    for (const w of windows) {
      if (w.target.kind !== 'partition') throw new Error('not a partition');
      const t = w.target;
      if (t.grudgeKind === 'client-from-servers' || t.grudgeKind === 'client-from-resource') {
        expect(t).toEqual({ kind: 'partition', grudgeKind: t.grudgeKind, victim: { kind: 'holder' } });
      } else if (t.grudgeKind === 'majorities-ring') {
        // Every node keeps a majority (itself and two neighbours) and drops the other two.
        expect(Object.values(t.grudge!).every((drops) => drops.length === 2)).toBe(true);
      } else if (t.grudgeKind === 'halves') {
        expect(blockedPairs(t.grudge!)).toHaveLength(6);
      } else {
        expect(t.victim?.kind).toBe('node');
        expect(blockedPairs(t.grudge!)).toHaveLength(4);
      }
    }
  });

  it('a single node leaves only the client partitions; isolating the leader stays symbolic', () => {
    const single = nemesisSchedule(options({ faults: ['partition'], intervalMs: 10, durationMs: 10, targets: { nodes: ['redis1'] } }), 2, 2_000);
    expect(new Set(single.map((w) => (w.target.kind === 'partition' ? w.target.grudgeKind : '')))).toEqual(
      new Set(['client-from-servers', 'client-from-resource']),
    );
    const leader = nemesisSchedule(options({ faults: ['partition'], targets: { nodes: three, server: 'leader', partitions: ['isolate-one'] } }), 2, 30_000);
    expect(leader[0]!.target).toEqual({ kind: 'partition', grudgeKind: 'isolate-one', victim: { kind: 'leader' } });
  });

  it('clock jumps go either way by twice the lease, or by clockOffsetMs', () => {
    const offsets = nemesisSchedule(options({ faults: ['clock'], intervalMs: 10, durationMs: 10 }), 8, 2_000).map((w) =>
      w.fault === 'clock' ? w.offsetMs : NaN,
    );
    expect(new Set(offsets)).toEqual(new Set([6_000, -6_000]));
    const first = nemesisSchedule(options({ faults: ['clock'], clockOffsetMs: 250 }), 8, 20_000)[0]!;
    expect(first.fault === 'clock' ? first.offsetMs : NaN).toSatisfy((x: number) => Math.abs(x) === 250);
  });

  it('evict windows aim at a server node with the policy asked for (allkeys-lru by default)', () => {
    const redlock = ['redlock1', 'redlock2', 'redlock3', 'redlock4', 'redlock5'];
    const windows = nemesisSchedule(options({ faults: ['evict'], intervalMs: 10, durationMs: 10, targets: { nodes: redlock } }), 3, 200);
    expect(windows.length).toBeGreaterThan(5);
    for (const w of windows) expect(w).toMatchObject({ fault: 'evict', policy: 'allkeys-lru', target: { kind: 'node' } });
    const volatile = nemesisSchedule(options({ faults: ['evict'], evictPolicy: 'volatile-lru', targets: { nodes: ['redis1'] } }), 3, 30_000);
    expect(volatile[0]).toEqual({ at: 10_000, until: 15_000, fault: 'evict', target: { kind: 'node', node: 'redis1' }, policy: 'volatile-lru' });
  });

  it('adding evict to FAULT_KINDS left every older fault list drawing as before (pinned: seed 7 above, and this mix)', () => {
    // Computed before evict existed (git 5ced7fc): a list without evict must keep it exactly.
    const mix = nemesisSchedule(options({ faults: ['client-pause', 'partition', 'loss'], intervalMs: 1000, durationMs: 1000 }), 11, 8_000);
    expect(mix.map((w) => w.fault)).toEqual(PINNED_MIX);
    // And evict added to a list changes only the windows where it is drawn: every other window keeps its target stream's order.
    const withEvict = nemesisSchedule(options({ faults: ['kill', 'evict'], intervalMs: 10, durationMs: 10 }), 5, 400);
    const killOnly = nemesisSchedule(options({ faults: ['kill'], intervalMs: 10, durationMs: 10 }), 5, 400);
    expect(withEvict.map((w) => w.target)).toEqual(killOnly.map((w) => w.target));
  });

  it('no faults, no windows', () => {
    expect(nemesisSchedule(options({ faults: [] }), 1, 60_000)).toEqual([]);
  });

  it.each<[Partial<NemesisOptions>, number, string]>([
    [{ durationMs: 0 }, 1000, 'Expected `durationMs` to be a positive number, got `0`'],
    [{ intervalMs: -1 }, 1000, 'Expected `intervalMs` to be a non-negative number, got `-1`'],
    [{}, -5, 'Expected `timeLimitMs` to be a non-negative number, got `-5`'],
    [{ targets: { nodes: [] } }, 1000, 'Expected at least one server node to aim server-pause, kill, clock at, got none'],
    [{ targets: { nodes: three, server: 'n9' } }, 1000, 'Expected the server target to be leader, random or one of n1, n2, n3, got `n9`'],
    [{ targets: { nodes: ['a', 'b'], partitions: ['majorities-ring'] } }, 1000, 'Expected at least 3 server nodes for a `majorities-ring` partition, got 2'],
    [
      { faults: ['flood' as FaultKind] },
      1000,
      // Every kind, from the registry: a new kind is listed without this test changing.
      `Expected a fault among ${FAULT_KINDS.join(', ')}, got \`flood\``,
    ],
    [{ faults: ['evict'], targets: { nodes: [] } }, 1000, 'Expected at least one server node to aim evict at, got none'],
  ])('rejects %j over %i ms', (o, limit, message) => {
    expect(() => nemesisSchedule(options(o), 1, limit)).toThrow(new UsageError(message));
  });
});
