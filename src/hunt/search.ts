/**
 * The hunt's search (pure, seeded): which plan to try next, given what the
 * earlier tries showed. Each try is a short run whose faults are a script of
 * one to a few windows, most of them aimed at lock events (triggers).
 *
 *   swarm    every fresh try enables a random subset of the fault kinds
 *            (Groce et al., ISSTA 2012: a fixed mix of every fault hides
 *            what one kind alone would show), then draws its windows from
 *            the arms (fault kind × trigger) of that subset, each arm with
 *            the weight the near misses gave it
 *   feedback a try that came close (near-miss.ts) raises the weight of the
 *            arms it used and enters the corpus, the less the more often
 *            its signs were seen before; later tries mutate corpus
 *            plans (shift a window, stretch it, change its trigger, add or
 *            drop a window), picked in proportion to how close they came
 *   weighing a hunt that weighs a safe (`--until-ruled-out`: aim 'weigh')
 *            spends most tries near the plans that put the protection to
 *            the test (the danger occurred and the resource held): only
 *            such tries count toward what is ruled out, and a fresh swarm
 *            plan meets the danger in about half the tries on a protected
 *            target (etcd: 38 of 80 in 10 minutes, 2026-12-06)
 *
 * Deterministic given the outcomes: try k draws from the stream forked for
 * k, and the state (weights, corpus) changes only through `record`. So a
 * seed and the tries' outcomes replay the same sequence of plans.
 */
import { Prng } from '../../core/random/prng.js';
import { type FaultKind, type FaultWindow, FAULT_SPECS } from '../../core/generator/faults/registry.js';
import type { TriggerEvent } from '../../core/generator/fault-window.js';
import { NEAR_MISS_SIGNS, nearMissScore, type NearMiss } from './near-miss.js';
import { windowOf, type Arm, type WindowScale } from './hunt-windows.js';

export type { Arm } from './hunt-windows.js';

export interface HuntSpace extends WindowScale {
  /** The fault kinds the hunt may use (each applicable to the target). */
  faults: readonly FaultKind[];
  /** The lock events available on this target (no `mark` without a cas-unique resource). */
  events: readonly TriggerEvent[];
  /** At most this many windows in one try. */
  maxWindows: number;
}

export interface TryPlan {
  index: number;
  /** The fault kinds this try's swarm enabled. */
  swarm: FaultKind[];
  windows: FaultWindow[];
  /**
   * The try's sections: short (the lease given, the default hold) or long (a
   * lease LONG_HOLD.leaseFactor times longer, held most of it): a failure
   * that takes seconds to unfold (a failover, a split brain) needs a holder
   * still in its section when the service changes its mind.
   */
  hold: 'short' | 'long';
  /**
   * How long a client waits for one call: short (the run's default) or long
   * (longer than the try's longest fault plus two leases, patienceMsOf): a
   * waiter paused in its acquire that gives up when it wakes shows nothing,
   * one that keeps waiting is told whatever its lock says then (etcd's
   * concurrency.Mutex granting on a lease that expired while it waited).
   */
  patience: 'short' | 'long';
  /** How the plan was made: fresh from the swarm, or a mutant of an earlier try. */
  origin: { kind: 'swarm' } | { kind: 'mutant'; of: number; how: string };
}

/**
 * A long hold's lease: `leaseFactor` times the given one, but at most `maxRunShare` of the try's main phase (and
 * never shorter than the given lease). Why the cap: the danger has to unfold within the try (the holder's lease
 * runs out, another client acquires, the holder comes back and acts), and a lease as long as the try leaves it no
 * room: etcd's 2 s minimum made long leases of 8 s in 10 s tries, and a 10-minute etcd hunt spent 13 of its first
 * 27 tries (its search following one write after the lease ended) on such plans without one testing the fence.
 */
export const LONG_HOLD = { leaseFactor: 4, holdShare: 0.75, maxRunShare: 0.4 } as const;

/** What a try's lease is sized from: the lease given and the main phase's length. */
export type LeaseSpace = Pick<HuntSpace, 'ttlMs' | 'timeLimitMs'>;

/** A long-patience try's call timeout: the longest window plus two of its leases, so a client woken from any of its faults still waits for its call. */
export function patienceMsOf(plan: Pick<TryPlan, 'windows' | 'hold'>, space: LeaseSpace): number {
  const longest = Math.max(0, ...plan.windows.map((w) => w.until - w.at));
  return longest + 2 * leaseOf(space, plan.hold);
}

/** The lease a try's windows are sized from. */
export function leaseOf(space: LeaseSpace, hold: TryPlan['hold']): number {
  if (hold === 'short') return space.ttlMs;
  return Math.max(space.ttlMs, Math.min(space.ttlMs * LONG_HOLD.leaseFactor, Math.round(space.timeLimitMs * LONG_HOLD.maxRunShare)));
}

interface CorpusEntry {
  plan: TryPlan;
  score: number;
}

/** What a hunt's tries are for: a violation (the default), or tested tries that weigh a safe (`--until-ruled-out`). */
export type SearchAim = 'find' | 'weigh';

/**
 * When weighing, the share of tries that mutate a tested plan once there is one; the rest search as a finding
 * hunt does, so that a kind of danger no tested plan reaches yet still gets tried (and its plans join the pool).
 */
export const WEIGH_SHARE = 0.75;

export function armsOf(space: Pick<HuntSpace, 'faults' | 'events'>): Arm[] {
  return space.faults.flatMap((fault) => FAULT_SPECS[fault].huntEvents.filter((on) => on === 'time' || space.events.includes(on)).map((on) => ({ fault, on })));
}

const armKey = (a: Arm): string => `${a.fault}@${a.on}`;

export class HuntSearch {
  private readonly root: Prng;
  private readonly weights = new Map<string, number>();
  private readonly corpus: CorpusEntry[] = [];
  /** The plans whose try was tested (aim 'weigh' mutates them): no score, every one as good as another. */
  private readonly tested: TryPlan[] = [];
  /** How many tries showed each set of signs so far (signsOf). */
  private readonly seen = new Map<string, number>();
  private tries = 0;

  constructor(
    private readonly space: HuntSpace,
    seed: number,
    private readonly aim: SearchAim = 'find',
  ) {
    if (space.faults.length === 0) throw new RangeError('Expected at least one fault kind to hunt with');
    this.root = new Prng(seed).fork('hunt');
    for (const a of armsOf(space)) this.weights.set(armKey(a), 1);
  }

  /** The next plan to try. */
  next(): TryPlan {
    const index = this.tries++;
    const rng = this.root.fork(`try-${index}`);
    // Weighing: mostly a variation of a tested plan, any of them alike (its own stream: a finding hunt draws as before).
    if (this.aim === 'weigh' && this.tested.length > 0) {
      const weigh = rng.fork('weigh');
      if (weigh.float() < WEIGH_SHARE) return this.mutant(index, rng, weigh.pick(this.tested));
    }
    // Mutate a near miss half the time once there is one; else a fresh swarm plan.
    if (this.corpus.length > 0 && rng.float() < 0.5) return this.mutant(index, rng, this.closeOne(rng));
    return this.fresh(index, rng);
  }

  /**
   * What a try showed: its arms gain weight by how close it came, and a near miss joins the corpus. A near miss
   * counts less each time the same signs show again (AFL's new coverage over more of the same): on a fenced
   * resource every client pause gives double holds and refusals, and without the discount the search spent
   * 30 of 35 tries of a 10-minute etcd hunt on that one arm.
   */
  record(plan: TryPlan, miss: NearMiss, tested = false): void {
    if (tested) this.tested.push(plan);
    const signs = signsOf(miss);
    const seen = this.seen.get(signs) ?? 0;
    this.seen.set(signs, seen + 1);
    const score = Math.min(nearMissScore(miss), 1e6) / (1 + seen);
    const used = [...new Set(plan.windows.map(armOfWindow).map(armKey))];
    for (const key of used) this.weights.set(key, (this.weights.get(key) ?? 1) + score / used.length);
    if (score > 0) this.corpus.push({ plan, score });
  }

  /** The arms' weights now (for the progress line and tests). */
  weightOf(arm: Arm): number {
    return this.weights.get(armKey(arm)) ?? 0;
  }

  private fresh(index: number, rng: Prng): TryPlan {
    const swarm = this.space.faults.filter(() => rng.float() < 0.5);
    if (swarm.length === 0) swarm.push(rng.pick(this.space.faults));
    const arms = armsOf({ ...this.space, faults: swarm });
    const count = rng.int(1, this.space.maxWindows);
    const hold = rng.float() < 0.5 ? 'long' : 'short';
    // From its own stream, so adding this choice left every other draw of a seed as it was.
    const patience = rng.fork('patience').float() < 0.5 ? 'long' : 'short';
    const scale = { ...this.space, ttlMs: leaseOf(this.space, hold) };
    const windows = Array.from({ length: count }, () => windowOf(this.weighted(arms, rng), scale, rng));
    return { index, swarm, hold, patience, windows: byTime(windows), origin: { kind: 'swarm' } };
  }

  /** A corpus plan in proportion to the square of how close it came: the closest near misses are mutated most (a try with a grant past its lease over one with a refusal). */
  private closeOne(rng: Prng): TryPlan {
    const total = this.corpus.reduce((t, e) => t + e.score ** 2, 0);
    let x = rng.float() * total;
    return (this.corpus.find((e) => (x -= e.score ** 2) < 0) ?? this.corpus.at(-1)!).plan;
  }

  private mutant(index: number, rng: Prng, parent: TryPlan): TryPlan {
    const windows = [...parent.windows];
    const i = rng.int(0, windows.length - 1);
    const arms = armsOf({ ...this.space, faults: parent.swarm });
    const scale = { ...this.space, ttlMs: leaseOf(this.space, parent.hold) };
    const ops: [string, () => void][] = [
      ['shift', () => void (windows[i] = shift(windows[i]!, rng.int(-1500, 1500), this.space.timeLimitMs))],
      ['stretch', () => void (windows[i] = stretch(windows[i]!, 0.5 + rng.float() * 1.5, this.space.timeLimitMs))],
      [
        'retrigger',
        () =>
          void (windows[i] = windowOf(
            {
              fault: windows[i]!.fault,
              on: rng.pick(FAULT_SPECS[windows[i]!.fault].huntEvents.filter((on) => on === 'time' || this.space.events.includes(on))),
            },
            scale,
            rng,
          )),
      ],
      [
        'add',
        () =>
          void (windows.length < this.space.maxWindows
            ? windows.push(windowOf(this.weighted(arms, rng), scale, rng))
            : (windows[i] = windowOf(armOfWindow(windows[i]!), scale, rng))),
      ],
      ['drop', () => void (windows.length > 1 ? windows.splice(i, 1) : (windows[i] = windowOf(armOfWindow(windows[i]!), scale, rng)))],
      // Two faults on one moment (a write delayed while its writer is cut off from the lock service): another window, or a new one of the swarm, takes this one's start and trigger.
      [
        'align',
        () =>
          void align(
            windows,
            i,
            rng,
            (on) => {
              const same = arms.filter((a) => a.on === on);
              return same.length > 0 ? windowOf(this.weighted(same, rng), scale, rng) : undefined;
            },
            this.space,
          ),
      ],
    ];
    const [how, op] = rng.pick(ops);
    op();
    // A mutant keeps its parent's patience, except now and then (its own stream: the other draws stay as they were).
    const flip = rng.fork('patience').float() < 0.2;
    const patience = flip ? (parent.patience === 'long' ? 'short' : 'long') : parent.patience;
    return {
      index,
      swarm: parent.swarm,
      hold: parent.hold,
      patience,
      windows: byTime(windows),
      origin: { kind: 'mutant', of: parent.index, how: flip ? `${how}, ${patience} patience` : how },
    };
  }

  /** An arm drawn in proportion to its weight. */
  private weighted(arms: readonly Arm[], rng: Prng): Arm {
    const total = arms.reduce((t, a) => t + this.weightOf(a), 0);
    let x = rng.float() * total;
    return arms.find((a) => (x -= this.weightOf(a)) < 0) ?? arms.at(-1)!;
  }
}

/** Which signs a near miss shows (not how many of each): `doubleHolds+refusals`. */
export function signsOf(m: NearMiss): string {
  return NEAR_MISS_SIGNS.filter((k) => m[k] > 0).join('+');
}

export function armOfWindow(w: FaultWindow): Arm {
  return { fault: w.fault, on: w.trigger?.on ?? 'time' };
}

function byTime(windows: FaultWindow[]): FaultWindow[] {
  return windows.sort((a, b) => a.at - b.at);
}

function shift(w: FaultWindow, byMs: number, limitMs: number): FaultWindow {
  const at = Math.max(0, Math.min(limitMs - 1, w.at + byMs));
  return { ...w, at, until: Math.min(limitMs, at + (w.until - w.at)) };
}

function stretch(w: FaultWindow, factor: number, limitMs: number): FaultWindow {
  return { ...w, until: Math.min(limitMs, w.at + Math.max(1, Math.round((w.until - w.at) * factor))) };
}

/**
 * Another window starts on window i's moment (the same planned start and
 * trigger): one whose fault kind may wait for that event, else a new window
 * of such an arm when there is room (`fresh`); unchanged when neither.
 */
function align(windows: FaultWindow[], i: number, rng: Prng, fresh: (on: Arm['on']) => FaultWindow | undefined, space: HuntSpace): void {
  const base = windows[i]!;
  const on = base.trigger?.on ?? 'time';
  const moved = (w: FaultWindow): FaultWindow => {
    const { trigger: _t, ...rest } = w;
    return {
      ...rest,
      at: base.at,
      until: Math.min(space.timeLimitMs, base.at + (w.until - w.at)),
      ...(base.trigger ? { trigger: base.trigger } : {}),
    } as FaultWindow;
  };
  const others = windows.map((w, j) => j).filter((j) => j !== i && FAULT_SPECS[windows[j]!.fault].huntEvents.includes(on));
  const made = windows.length < space.maxWindows && (others.length === 0 || rng.float() < 0.5) ? fresh(on) : undefined;
  if (made) windows.push(moved(made));
  else if (others.length > 0) {
    const j = rng.pick(others);
    windows[j] = moved(windows[j]!);
  }
}
