/**
 * The shrink's course, for a lock run's plan and a queue run's alike: the
 * original re-run until the rule decides (a hunt's confirmation re-runs
 * count), then, if it is reproducible enough, the plan's own shrinker with
 * each candidate re-run until the rule keeps or drops it. Ctrl-C ends it with
 * the smallest plan confirmed so far. What the caller does with the answer
 * (its lines, its replay, shrink.json) is its own.
 */
import type { ReproduceRule } from './reproduce-rule.js';
import { formatRate, rateJson } from './reproduce-rule.js';
import { ShrinkInterrupted, type Reproduced, type reproducer } from './reproducer.js';
import type { Tally } from '../hunt/sequential-decision.js';

type Reproducer<P> = ReturnType<typeof reproducer<P>>;

/** A plan shrinker over an oracle (delta-debug.ts's, queue-shrink-plan.ts's). */
export type Shrinker<P> = (
  start: P,
  oracle: (p: P) => Promise<boolean>,
  maxCandidates: number,
) => Promise<{ plan: P; candidates: number; steps: { step: string; plan: P }[]; exhausted: boolean }>;

/**
 * Changes meant to make a plan fail more often (a longer fault, a wider delay or clock jump, one client fewer),
 * each named as the steps line says it; undefined where a change does not apply.
 */
export type Boosts<P> = (plan: P) => [string, P | undefined][];

export type ShrinkCourse<P> =
  | { shrunk: false; lines: string[]; reproduced: Tally }
  | {
      shrunk: true;
      first: Reproduced;
      final: Reproduced;
      plan: P;
      steps: { step: string; plan: P }[];
      candidates: number;
      exhausted: boolean;
      interrupted: boolean;
    };

export async function shrinkWithRule<P>(
  start: P,
  rule: ReproduceRule,
  r: Reproducer<P>,
  shrink: Shrinker<P>,
  o: { maxCandidates: number; originalRuns?: (Tally & { failingRun: string | null }) | undefined; boosts?: Boosts<P> | undefined },
  log: (line: string) => void,
): Promise<ShrinkCourse<P>> {
  let first: Reproduced;
  try {
    if (o.originalRuns !== undefined) log(`shrink: the original plan's ${o.originalRuns.of} re-runs by the hunt count (failed ${formatRate(o.originalRuns)})`);
    first = await r.reproduce(start, rule.original, o.originalRuns);
  } catch (err) {
    if (err instanceof ShrinkInterrupted)
      return { shrunk: false, lines: ['not shrunk: interrupted while re-running the original plan'], reproduced: { fails: 0, of: 0 } };
    throw err;
  }
  if (first.verdict !== 'keep') return { shrunk: false, lines: rule.notShrunk(first), reproduced: { fails: first.fails, of: first.of } };
  let boost: Boosted<P>;
  try {
    boost = await boostPlan(start, first, rule, r, o.boosts, o.maxCandidates, log);
  } catch (err) {
    if (!(err instanceof ShrinkInterrupted)) throw err;
    return { shrunk: true, first, final: first, plan: start, steps: [], candidates: r.attempts(), exhausted: false, interrupted: true };
  }
  const candidates = rule.candidates(boost.current);
  if (candidates.said !== null) log(candidates.said);
  // The smallest plan confirmed so far, for an interrupted shrink.
  let confirmed = boost.plan;
  let interrupted = false;
  const boostedJson = JSON.stringify(boost.plan);
  const result = await shrink(
    boost.plan,
    async (p) => {
      const json = JSON.stringify(p);
      // A plan the boosts moved away from (the original, a bigger change) fails less often than the boosted one.
      if (boost.judged.has(json) && json !== boostedJson) return false;
      const ok = (await r.reproduce(p, candidates.decide)).verdict === 'keep';
      if (ok) confirmed = p;
      return ok;
    },
    o.maxCandidates - boost.candidates,
  ).catch((err: unknown) => {
    if (!(err instanceof ShrinkInterrupted)) throw err;
    interrupted = true;
    return { plan: confirmed, candidates: r.attempts() - boost.candidates, steps: [] as { step: string; plan: P }[], exhausted: false };
  });
  let final = r.counts.get(JSON.stringify(result.plan)) ?? boost.current;
  const bar = interrupted ? null : rule.shrunk(first);
  if (bar !== null && bar.decide(final) === 'undecided') {
    log(bar.said);
    try {
      final = await r.reproduce(result.plan, bar.decide, final, 'the shrunk plan');
    } catch (err) {
      if (!(err instanceof ShrinkInterrupted)) throw err;
      interrupted = true;
    }
  }
  return {
    shrunk: true,
    first,
    final,
    ...result,
    steps: [...boost.steps, ...result.steps],
    candidates: boost.candidates + result.candidates,
    interrupted,
  };
}

interface Boosted<P> {
  plan: P;
  /** The plan's re-runs: the original's, or the last kept boost's, measured as the original's were. */
  current: Reproduced;
  steps: { step: string; plan: P }[];
  /** The reproducer's candidates so far (a kept boost's measurement is one of them). */
  candidates: number;
  /** Every plan the boosts judged, the original's included. */
  judged: Set<string>;
}

/**
 * The boosts before the shrink (issue 33): while the plan fails rarely enough for the rule to try one, each
 * change once (the first that applies and is new), kept only when it clearly fails more often; a kept boost's
 * rate is then measured as the original's was (its re-runs so far counted), and the shrink holds its
 * candidates to that rate.
 */
async function boostPlan<P>(
  start: P,
  first: Reproduced,
  rule: ReproduceRule,
  r: Reproducer<P>,
  boosts: Boosts<P> | undefined,
  maxCandidates: number,
  log: (line: string) => void,
): Promise<Boosted<P>> {
  const b: Boosted<P> = { plan: start, current: first, steps: [], candidates: 0, judged: new Set([JSON.stringify(start)]) };
  if (boosts === undefined) return b;
  const tried = new Set<string>();
  let said = false;
  for (let test = rule.boost(b.current); test !== null && b.candidates < maxCandidates; test = rule.boost(b.current)) {
    const next = boosts(b.plan).find(([step, p]) => p !== undefined && !tried.has(step) && !b.judged.has(JSON.stringify(p)));
    if (next === undefined) break;
    const [step, candidate] = next as [string, P];
    if (!said) log(test.said);
    said = true;
    tried.add(step);
    b.judged.add(JSON.stringify(candidate));
    const t = await r.reproduce(candidate, test.decide);
    b.candidates = r.attempts();
    if (t.verdict !== 'keep') continue;
    // Logged and counted as a candidate of its own: the same plan's re-runs go on until the original's rule decides.
    b.current = await r.reproduce(candidate, rule.original, t);
    b.candidates = r.attempts();
    b.plan = candidate;
    b.steps.push({ step: `more often: ${step}`, plan: candidate });
  }
  return b;
}

/**
 * The steps line of a shrunk plan: `steps: windows: 2 → 1; two workers (8 candidates)`. An interrupted shrink
 * knows its smallest confirmed plan but not the steps that led there (the shrinker's record is lost with it): it
 * says so, rather than "already minimal" (which it said of a plan cut from 6 fault events to 4, 2026-12-06).
 */
export function stepsLine(course: { steps: { step: string }[]; candidates: number; exhausted: boolean; interrupted?: boolean }): string {
  const none = course.interrupted === true ? 'not recorded (interrupted: the kept candidates are in the lines above)' : 'none (already minimal)';
  return `steps: ${course.steps.map((s) => s.step).join('; ') || none} (${course.candidates} candidates${course.exhausted ? ', candidate budget spent' : ''})`;
}

/** shrink.json's rates with their intervals: the original's re-runs (what candidates were held to) and the shrunk plan's. */
export function courseJson<P>(course: { first: Reproduced; final: Reproduced; plan: P; steps: { step: string; plan: P }[] }): Record<string, unknown> {
  return {
    originalReproduced: rateJson(course.first),
    shrunk: course.plan,
    reproduced: { ...rateJson(course.final), failingRun: course.final.failingRun },
    steps: course.steps,
  };
}
