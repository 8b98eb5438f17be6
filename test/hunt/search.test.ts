/**
 * The hunt's search with fake outcomes: deterministic given the seed and the
 * outcomes, every plan one the target can run (and one --script reads back),
 * and near misses bias later tries toward the arms that came close.
 */
import { describe, expect, it } from 'vitest';
import { armOfWindow, armsOf, HuntSearch, leaseOf, patienceMsOf, type HuntSpace, type SearchAim, type TryPlan } from '../../src/hunt/search.js';
import type { NearMiss } from '../../src/hunt/near-miss.js';
import { parseScript, scriptText } from '../../core/generator/parse-script.js';
import { testSeed } from '../support/seed.js';
import { nearMiss } from './near-miss-fixture.js';

const NODES = ['redlock1', 'redlock2', 'redlock3', 'redlock4', 'redlock5'];
const space: HuntSpace = {
  faults: ['client-pause', 'server-pause', 'partition', 'delay', 'clock'],
  events: ['acquire', 'grant', 'holder-read', 'write', 'held', 'lease-ending'],
  maxWindows: 3,
  timeLimitMs: 10_000,
  ttlMs: 1000,
  nodes: NODES,
  partitionShapes: ['client-from-servers', 'client-from-some-servers', 'client-from-resource', 'isolate-one'],
};
const quiet: NearMiss = nearMiss();

/** A fake target: each window that pauses a holder between its read and its write makes two double holds. */
const fakeOutcome = (p: TryPlan): NearMiss => ({
  ...quiet,
  doubleHolds: 2 * p.windows.filter((w) => w.fault === 'client-pause' && w.trigger?.on === 'holder-read').length,
});

/** The plans with `yes`, after checking that well over a tenth of the plans are drawn each way. */
function drawnBothWays(plans: readonly TryPlan[], yes: (p: TryPlan) => boolean): TryPlan[] {
  const chosen = plans.filter(yes);
  expect(chosen.length).toBeGreaterThan(20);
  expect(plans.length - chosen.length).toBeGreaterThan(20);
  return chosen;
}

function drive(
  seed: number,
  tries: number,
  outcome: (p: TryPlan) => NearMiss,
  aim: SearchAim = 'find',
  tested: (p: TryPlan) => boolean = () => false,
): TryPlan[] {
  const s = new HuntSearch(space, seed, aim);
  const plans: TryPlan[] = [];
  for (let i = 0; i < tries; i++) {
    const p = s.next();
    plans.push(p);
    s.record(p, outcome(p), tested(p));
  }
  return plans;
}

/** A fake protected target: a try is tested when it pauses a holder (a double hold, the fence refuses the late write). */
const pausesAHolder = (p: TryPlan): boolean =>
  p.windows.some((w) => w.fault === 'client-pause' && ['holder-read', 'write', 'held'].includes(w.trigger?.on ?? ''));
const protectedOutcome = (p: TryPlan): NearMiss => (pausesAHolder(p) ? { ...quiet, doubleHolds: 2, refusals: 2 } : quiet);

describe('the hunt search', () => {
  it('replays the same plans from the same seed and outcomes, and other plans from another seed', () => {
    const seed = testSeed('hunt search replay', 'test/hunt/search.test.ts');
    expect(JSON.stringify(drive(seed, 40, fakeOutcome))).toBe(JSON.stringify(drive(seed, 40, fakeOutcome)));
    expect(JSON.stringify(drive(seed + 1, 40, fakeOutcome))).not.toBe(JSON.stringify(drive(seed, 40, fakeOutcome)));
  });

  it('makes only plans the target can run: swarm faults, known events, inside the main phase, read back by --script', () => {
    const seed = testSeed('hunt search plans', 'test/hunt/search.test.ts');
    const arms = armsOf(space).map((a) => `${a.fault}@${a.on}`);
    for (const p of drive(seed, 200, fakeOutcome)) {
      expect(p.windows.length).toBeGreaterThanOrEqual(1);
      expect(p.windows.length).toBeLessThanOrEqual(space.maxWindows);
      for (const w of p.windows) {
        expect(p.swarm).toContain(w.fault);
        expect(arms).toContain(`${armOfWindow(w).fault}@${armOfWindow(w).on}`);
        expect(w.at).toBeGreaterThanOrEqual(0);
        expect(w.until).toBeLessThanOrEqual(space.timeLimitMs);
        expect(w.until).toBeGreaterThanOrEqual(w.at);
      }
      expect(parseScript(scriptText(p.windows))).toEqual(p.windows);
    }
  });

  it('aims server faults at the leader and at each named node, and cuts clients off from all servers or from a minority of them', () => {
    const seed = testSeed('hunt search victims', 'test/hunt/search.test.ts');
    const windows = drive(seed, 300, () => quiet).flatMap((p) => p.windows);
    const servers = windows.flatMap((w) => (w.fault === 'server-pause' || w.fault === 'clock' ? [w.target.kind === 'node' ? w.target.node : 'leader'] : []));
    expect(new Set(servers)).toEqual(new Set(['leader', ...NODES]));
    const cuts = windows.flatMap((w) => (w.fault === 'partition' && w.target.grudgeKind === 'client-from-servers' ? [w.target.servers] : []));
    expect(cuts.some((c) => c === undefined)).toBe(true);
    const some = cuts.filter((c): c is string[] => c !== undefined);
    expect(some.length).toBeGreaterThan(0);
    for (const c of some) {
      expect(c.length).toBeGreaterThanOrEqual(1);
      expect(c.length).toBeLessThanOrEqual(2);
      for (const n of c) expect(NODES).toContain(n);
      expect(new Set(c).size).toBe(c.length);
    }
  });

  it('aligns two faults on one moment among its mutations', () => {
    const seed = testSeed('hunt search align', 'test/hunt/search.test.ts');
    const aligned = drive(seed, 300, fakeOutcome).filter((p) => p.origin.kind === 'mutant' && p.origin.how === 'align' && p.windows.length > 1);
    expect(aligned.length).toBeGreaterThan(0);
    for (const p of aligned)
      expect(p.windows.some((a, i) => p.windows.some((b, j) => i !== j && a.at === b.at && JSON.stringify(a.trigger) === JSON.stringify(b.trigger)))).toBe(
        true,
      );
  });

  it("tries short and long sections, sizing each plan's windows from its own lease, and mutants keep their parent's", () => {
    const plans = drive(testSeed('hunt search holds', 'test/hunt/search.test.ts'), 200, fakeOutcome);
    const long = drawnBothWays(plans, (p) => p.hold === 'long');
    // A client pause is 1.5-3 leases: of the long lease in a long plan (clipped by the main phase), of the short one otherwise.
    const pauses = (ps: TryPlan[]) =>
      ps
        .filter((p) => p.origin.kind === 'swarm')
        .flatMap((p) => p.windows.filter((w) => w.fault === 'client-pause' && w.until < space.timeLimitMs).map((w) => w.until - w.at));
    for (const ms of pauses(plans.filter((p) => p.hold === 'short'))) expect(ms).toBeLessThanOrEqual(3 * space.ttlMs);
    for (const ms of pauses(long)) expect(ms).toBeGreaterThanOrEqual(1.5 * leaseOf(space, 'long'));
    for (const m of plans) if (m.origin.kind === 'mutant') expect(m.hold).toBe(plans[m.origin.of]!.hold);
  });

  it('a long hold leaves the danger room to unfold: its lease at most 40 % of the main phase, never shorter than the given one', () => {
    // Redis's 1 s lease in a 10 s try: four times it. etcd's 2 s minimum: 4 s, not 8 s (the lease would outlast most of the try).
    expect(leaseOf({ ttlMs: 1000, timeLimitMs: 10_000 }, 'long')).toBe(4000);
    expect(leaseOf({ ttlMs: 2000, timeLimitMs: 10_000 }, 'long')).toBe(4000);
    expect(leaseOf({ ttlMs: 2000, timeLimitMs: 30_000 }, 'long')).toBe(8000);
    expect(leaseOf({ ttlMs: 6000, timeLimitMs: 10_000 }, 'long')).toBe(6000);
    expect(leaseOf({ ttlMs: 2000, timeLimitMs: 10_000 }, 'short')).toBe(2000);
    // On such a target a long plan's client pause is 1.5-3 of the capped lease (clipped by the main phase's end).
    const etcd = { ...space, ttlMs: 2000 };
    const s = new HuntSearch(etcd, testSeed('hunt search long lease', 'test/hunt/search.test.ts'));
    const longPauses = Array.from({ length: 300 }, () => s.next())
      .filter((p) => p.hold === 'long' && p.origin.kind === 'swarm')
      .flatMap((p) => p.windows.filter((w) => w.fault === 'client-pause' && w.until < etcd.timeLimitMs));
    expect(longPauses.length).toBeGreaterThan(10);
    for (const w of longPauses) expect(w.until - w.at).toBeGreaterThanOrEqual(1.5 * 4000 - 1);
    for (const w of longPauses) expect(w.until - w.at).toBeLessThanOrEqual(3 * 4000 + 1);
  });

  it("tries short and long patience; a patient try waits for a call longer than its longest fault plus two leases; mutants keep their parent's unless they say otherwise", () => {
    const plans = drive(testSeed('hunt search patience', 'test/hunt/search.test.ts'), 200, fakeOutcome);
    const patient = drawnBothWays(plans, (p) => p.patience === 'long');
    for (const p of patient) {
      const ms = patienceMsOf(p, space);
      for (const w of p.windows) expect(ms).toBeGreaterThanOrEqual(w.until - w.at + 2 * leaseOf(space, p.hold));
    }
    const mutants = plans.filter((p) => p.origin.kind === 'mutant');
    const flipped = mutants.filter((m) => m.origin.kind === 'mutant' && m.origin.how.endsWith('patience'));
    expect(flipped.length).toBeGreaterThan(0);
    for (const m of mutants) {
      if (m.origin.kind !== 'mutant') continue;
      const parent = plans[m.origin.of]!.patience;
      expect(m.patience === parent).toBe(!m.origin.how.endsWith('patience'));
    }
  });

  it('never aims at a mark without a cas-unique resource (no such event)', () => {
    expect(armsOf(space).some((a) => a.on === 'mark')).toBe(false);
    expect(armsOf({ ...space, events: [...space.events, 'mark'] }).some((a) => a.on === 'mark')).toBe(true);
  });

  it('near misses bias later tries toward the arm that came close', () => {
    const seed = testSeed('hunt search feedback', 'test/hunt/search.test.ts');
    const share = (plans: TryPlan[]): number => {
      const ws = plans.slice(60).flatMap((p) => p.windows);
      return ws.filter((w) => w.fault === 'client-pause' && w.trigger?.on === 'holder-read').length / ws.length;
    };
    const guided = share(drive(seed, 120, fakeOutcome));
    const blind = share(drive(seed, 120, () => quiet));
    console.log(`[hunt search feedback] share of client-pause@holder-read in tries 61-120: guided ${guided.toFixed(3)}, blind ${blind.toFixed(3)}`);
    expect(guided).toBeGreaterThan(2 * blind);
    const s = new HuntSearch(space, seed);
    const p = s.next();
    s.record(p, { ...quiet, doubleHolds: 5 });
    for (const w of p.windows) expect(s.weightOf(armOfWindow(w))).toBeGreaterThan(1);
  });

  it('a near miss counts less each time the same signs show again, and a new sign counts in full', () => {
    const s = new HuntSearch(space, 1);
    const p = s.next();
    const arm = armOfWindow(p.windows[0]!);
    const gain = (miss: NearMiss): number => {
      const before = s.weightOf(arm);
      s.record(p, miss);
      return (s.weightOf(arm) - before) * new Set(p.windows.map((w) => `${armOfWindow(w).fault}@${armOfWindow(w).on}`)).size;
    };
    const same = { ...quiet, doubleHolds: 4, refusals: 2 };
    const first = gain(same);
    expect(gain(same)).toBeCloseTo(first / 2);
    expect(gain({ ...same, doubleHolds: 9 })).toBeLessThan(first / 2);
    // Grants to paused waiters: a sign not seen yet, counted in full beside the same double holds and refusals.
    expect(gain({ ...same, sleptGrants: 1 })).toBeGreaterThan(first);
  });

  it('weighing a safe (--until-ruled-out), most tries vary the tested ones: far more of them test; finding draws as before', () => {
    const seed = testSeed('hunt search weigh', 'test/hunt/search.test.ts');
    const share = (plans: readonly TryPlan[]): number => plans.slice(20).filter(pausesAHolder).length / (plans.length - 20);
    const finding = share(drive(seed, 200, protectedOutcome, 'find', pausesAHolder));
    const weighing = share(drive(seed, 200, protectedOutcome, 'weigh', pausesAHolder));
    console.log(`[hunt search weigh] tested share of tries 21-200: finding ${finding.toFixed(3)}, weighing ${weighing.toFixed(3)}`);
    expect(weighing).toBeGreaterThan(0.6);
    expect(weighing).toBeGreaterThan(finding + 0.1);
    // Told what tested, a finding hunt's plans are those it draws without being told.
    expect(JSON.stringify(drive(seed, 60, protectedOutcome, 'find', pausesAHolder))).toBe(JSON.stringify(drive(seed, 60, protectedOutcome)));
    // Weighing before any try tested: the finding hunt's plans.
    expect(JSON.stringify(drive(seed, 60, () => quiet, 'weigh'))).toBe(JSON.stringify(drive(seed, 60, () => quiet)));
  });

  it('mutates near misses once there are some, and only then', () => {
    const seed = testSeed('hunt search mutants', 'test/hunt/search.test.ts');
    const blind = drive(seed, 50, () => quiet);
    expect(blind.every((p) => p.origin.kind === 'swarm')).toBe(true);
    const guided = drive(seed, 50, fakeOutcome);
    const mutants = guided.filter((p) => p.origin.kind === 'mutant');
    expect(mutants.length).toBeGreaterThan(10);
    for (const m of mutants) if (m.origin.kind === 'mutant') expect(m.origin.of).toBeLessThan(m.index);
  });
});
