/**
 * Shrinking a failing run's plan (pure over an injected oracle): the smallest
 * plan, by the plan's own choices, that still fails. As Hypothesis shrinks a
 * generator's choices rather than its output, every candidate is a plan the
 * runner runs as it stands (a script of fault windows and a few numbers).
 *
 * The steps, each tried in turn until none is accepted (a fixed point):
 *
 *   windows   delta debugging (Zeller's ddmin) over the fault windows
 *   end       the run ending a second after its last window (first of
 *             the transforms: every later candidate runs no longer)
 *   triggers  drop a window's trigger (it then starts at its planned time)
 *   nodes     a clock jump on several nodes: one node fewer
 *   clients   down to two, then one fewer at a time
 *   lengths   halve a window (a pause, a partition) or a delay's amount
 *   time      halve the time limit
 *             (windows past it dropped, cut at it)
 *   rate      halve the rate of critical sections
 *
 * A candidate is kept only when the oracle says it still fails; the real
 * oracle re-runs it K times on the cluster (run-shrink.ts). `maxCandidates`
 * bounds the oracle calls.
 */
import type { FaultWindow } from '../../core/generator/faults/registry.js';
import type { NodeSet, ServerVictim } from '../../core/generator/fault-window.js';
import { faultEvents } from '../../core/generator/fault-events.js';

/** The choices of a plan that shrinking may change. */
export interface ShrinkPlan {
  script: FaultWindow[];
  clients: number;
  timeLimitS: number;
  rate: number;
}

export type Oracle = (plan: ShrinkPlan) => Promise<boolean>;

export interface ShrinkStep {
  step: string;
  plan: ShrinkPlan;
}

export interface ShrinkResult {
  plan: ShrinkPlan;
  /** The candidates the oracle judged. */
  candidates: number;
  /** The accepted steps, in order. */
  steps: ShrinkStep[];
  /** The candidate budget ran out before a fixed point. */
  exhausted: boolean;
}

/** Fewest ms a window may last, and the lowest rate and time limit worth trying. */
export const FLOOR = { windowMs: 100, rate: 0.5, timeLimitS: 2 };

export async function shrinkPlan(start: ShrinkPlan, oracle: Oracle, maxCandidates = 40): Promise<ShrinkResult> {
  return shrinkByTransforms(start, { items: (p) => p.script, withItems: (p, script) => ({ ...p, script }) }, transforms(), oracle, maxCandidates);
}

/** A plan's list of fault windows, which ddmin shrinks: how to read it and how to put a shorter one back. */
export interface PlanWindows<P, W> {
  items(plan: P): readonly W[];
  withItems(plan: P, items: W[]): P;
}

/**
 * The shrink loop over any plan (a lock run's, a queue run's): ddmin over its windows, then each transform again
 * while it keeps being accepted, until a round changes nothing or the candidates are spent. A candidate seen
 * before is not judged again.
 */
export async function shrinkByTransforms<P, W>(
  start: P,
  windows: PlanWindows<P, W>,
  steps: readonly [string, (p: P) => P | undefined][],
  oracle: (plan: P) => Promise<boolean>,
  maxCandidates: number,
): Promise<{ plan: P; candidates: number; steps: { step: string; plan: P }[]; exhausted: boolean }> {
  let plan = start;
  let candidates = 0;
  const accepted: { step: string; plan: P }[] = [];
  const seen = new Set<string>([JSON.stringify(start)]);
  /** Try one candidate; true when it was accepted. */
  const attempt = async (step: string, candidate: P | undefined): Promise<boolean> => {
    if (candidate === undefined || seen.has(JSON.stringify(candidate)) || candidates >= maxCandidates) return false;
    seen.add(JSON.stringify(candidate));
    candidates++;
    if (!(await oracle(candidate))) return false;
    plan = candidate;
    accepted.push({ step, plan });
    return true;
  };
  for (let progress = true; progress && candidates < maxCandidates;) {
    const before = windows.items(plan).length;
    // attempt() moves `plan` to each accepted subset; ddmin's answer is the last one accepted.
    await ddmin(windows.items(plan), (items) => attempt(`windows: ${windows.items(plan).length} → ${items.length}`, windows.withItems(plan, items)));
    progress = windows.items(plan).length < before;
    for (const [step, make] of steps) {
      // Each transform again while it keeps being accepted (halving twice, three clients fewer, ...).
      while (await attempt(step, make(plan))) progress = true;
    }
  }
  return { plan, candidates, steps: accepted, exhausted: candidates >= maxCandidates };
}

/**
 * Zeller's ddmin over a list: remove chunks while the rest still fails
 * (`fails` also accepts the candidate). Returns the smallest list found.
 */
export async function ddmin<T>(items: readonly T[], fails: (subset: T[]) => Promise<boolean>): Promise<T[]> {
  let current = [...items];
  let n = 2;
  while (current.length >= 2) {
    const size = Math.ceil(current.length / n);
    let reduced = false;
    for (let i = 0; i < current.length; i += size) {
      const complement = [...current.slice(0, i), ...current.slice(i + size)];
      if (complement.length > 0 && (await fails(complement))) {
        current = complement;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(n * 2, current.length);
    }
  }
  return current;
}

type Transform = (p: ShrinkPlan) => ShrinkPlan | undefined;

function transforms(): [string, Transform][] {
  const eachWindow = (name: string, change: (w: FaultWindow) => FaultWindow | undefined): [string, Transform][] =>
    // One transform per window position: the plan's windows keep their order.
    Array.from({ length: 8 }, (_, i): [string, Transform] => [`${name} of window ${i + 1}`, (p) => withWindow(p, i, change)]);
  return [
    // First, as the queue shrink does: every later candidate then runs only as long as its windows need (a zk find of
    // 2026-12-06 ran its first 15 candidates at 10 s and was cut to 7 s on the 16th: 30 runs 3 s longer than needed).
    ['end after the last window', endAfterLastWindow],
    ...eachWindow('drop the trigger', (w) => (w.trigger === undefined ? undefined : withoutTrigger(w))),
    // A clock jump on several nodes: one node fewer (the last drawn), down to the one it was drawn from; before the
    // lengths, since each node is a fault event and a shrink's candidates are few.
    ...eachWindow('one node fewer', (w) =>
      w.fault === 'clock' && w.target.kind === 'nodes' && w.target.nodes.length > 1 ? { ...w, target: fewerNodes(w.target.nodes) } : undefined,
    ),
    // Fewer clients before shorter faults: the summary line counts clients (and fault events), not lengths, and a
    // shrink with few candidates (npm run libraries gives 3) should spend them on what the reader counts.
    ['two clients', (p) => (p.clients > 2 ? { ...p, clients: 2 } : undefined)],
    ['one client fewer', (p) => (p.clients > 2 ? { ...p, clients: p.clients - 1 } : undefined)],
    ...eachWindow('halve the length', (w) => (w.until - w.at >= 2 * FLOOR.windowMs ? { ...w, until: w.at + Math.round((w.until - w.at) / 2) } : undefined)),
    ...eachWindow('halve the delay', (w) =>
      w.fault === 'delay' && w.delayMs >= 2 * FLOOR.windowMs ? { ...w, delayMs: Math.round(w.delayMs / 2) } : undefined,
    ),
    ['halve the time limit', halveTime],
    ['halve the rate', (p) => (p.rate / 2 >= FLOOR.rate ? { ...p, rate: p.rate / 2 } : undefined)],
  ];
}

/**
 * The changes that may make a rare failure show more often (issue 33), tried before the shrink when the plan
 * fails rarely: each window twice as long (a longer pause, partition or outage, within the run), a delay or a
 * clock jump twice as wide, one client fewer competing for the lock. shrink-with-rule.ts keeps one only when
 * it clearly fails more often.
 */
export function boosts(p: ShrinkPlan): [string, ShrinkPlan | undefined][] {
  const limitMs = p.timeLimitS * 1000;
  return [
    ...p.script.flatMap((_, i): [string, ShrinkPlan | undefined][] => [
      [
        `lengthen window ${i + 1}`,
        withWindow(p, i, (x) => {
          const until = Math.min(limitMs, x.at + 2 * (x.until - x.at));
          return until > x.until ? { ...x, until } : undefined;
        }),
      ],
      [`widen the delay of window ${i + 1}`, withWindow(p, i, (x) => (x.fault === 'delay' ? { ...x, delayMs: 2 * x.delayMs } : undefined))],
      [`widen the clock jump of window ${i + 1}`, withWindow(p, i, (x) => (x.fault === 'clock' ? { ...x, offsetMs: 2 * x.offsetMs } : undefined))],
    ]),
    ['one client fewer', p.clients > 2 ? { ...p, clients: p.clients - 1 } : undefined],
  ];
}

/** The plan with its `i`-th window changed; undefined when there is none or the change does not apply. */
function withWindow(p: ShrinkPlan, i: number, change: (w: FaultWindow) => FaultWindow | undefined): ShrinkPlan | undefined {
  const w = p.script[i];
  const changed = w === undefined ? undefined : change(w);
  return changed === undefined ? undefined : { ...p, script: p.script.map((x, j) => (j === i ? changed : x)) };
}

function fewerNodes(nodes: readonly string[]): NodeSet | ServerVictim {
  const kept = nodes.slice(0, -1);
  return kept.length === 1 ? { kind: 'node', node: kept[0]! } : { kind: 'nodes', nodes: kept };
}

function withoutTrigger(w: FaultWindow): FaultWindow {
  const { trigger: _dropped, ...rest } = w;
  return rest as FaultWindow;
}

/** Half the time limit, windows past it dropped and the rest cut at it (none left: no candidate). */
function halveTime(p: ShrinkPlan): ShrinkPlan | undefined {
  const limitS = Math.ceil(p.timeLimitS / 2);
  if (limitS < FLOOR.timeLimitS || limitS >= p.timeLimitS) return undefined;
  const limitMs = limitS * 1000;
  const script = p.script.filter((w) => w.at < limitMs).map((w) => ({ ...w, until: Math.min(w.until, limitMs) }));
  return script.length === 0 ? undefined : { ...p, timeLimitS: limitS, script };
}

/** The time limit a second past the last window's end (a triggered window may fire later: the oracle decides). */
function endAfterLastWindow(p: ShrinkPlan): ShrinkPlan | undefined {
  const limitS = Math.max(FLOOR.timeLimitS, Math.ceil(Math.max(0, ...p.script.map((w) => w.until)) / 1000) + 1);
  return limitS < p.timeLimitS ? { ...p, timeLimitS: limitS } : undefined;
}

/** `shrunk to 1 fault event, 2 clients, 5 s`: the summary line's plan half (scripts read it). */
export function describeShrunk(p: ShrinkPlan): string {
  const events = faultEvents(p.script);
  return `${events} fault event${events === 1 ? '' : 's'}, ${p.clients} client${p.clients === 1 ? '' : 's'}, ${p.timeLimitS} s`;
}
