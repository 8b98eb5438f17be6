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
  o: { maxCandidates: number; originalRuns?: (Tally & { failingRun: string | null }) | undefined },
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
  const candidates = rule.candidates(first);
  if (candidates.said !== null) log(candidates.said);
  // The smallest plan confirmed so far, for an interrupted shrink.
  let confirmed = start;
  let interrupted = false;
  const result = await shrink(
    start,
    async (p) => {
      const ok = (await r.reproduce(p, candidates.decide)).verdict === 'keep';
      if (ok) confirmed = p;
      return ok;
    },
    o.maxCandidates,
  ).catch((err: unknown) => {
    if (!(err instanceof ShrinkInterrupted)) throw err;
    interrupted = true;
    return { plan: confirmed, candidates: r.attempts(), steps: [], exhausted: false };
  });
  const final = r.counts.get(JSON.stringify(result.plan)) ?? first;
  return { shrunk: true, first, final, ...result, interrupted };
}

/** The steps line of a shrunk plan: `steps: windows: 2 → 1; two workers (8 candidates)`. */
export function stepsLine(course: { steps: { step: string }[]; candidates: number; exhausted: boolean }): string {
  return `steps: ${course.steps.map((s) => s.step).join('; ') || 'none (already minimal)'} (${course.candidates} candidates${course.exhausted ? ', candidate budget spent' : ''})`;
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
