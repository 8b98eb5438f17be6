/**
 * `runShrink`: a failing run's plan shrunk on the real cluster. The run's
 * options come back from its test.json (a seeded schedule is resolved into
 * the script it ran, so every plan is a script); the original is first
 * re-run until its rate is known (shrinking starts only if it is not too
 * rare), then each candidate of the pure core (delta-debug.ts) is re-run
 * until it is clearly as reproducible as the original or clearly less
 * (sequential-decision.ts); `runs`/`minFails` ask for the fixed rule, k
 * failures of K (reproduce-rule.ts). Every rate is printed with Wilson's
 * 95 % interval. The simulation may propose; only the cluster decides.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { UsageError } from '../../core/errors.js';
import { isRunDir } from '../../runtime/store/run-dir-entries.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import { parseScript } from '../../core/generator/parse-script.js';
import { DEFAULTS, replayCommand, type RunOptions } from '../../core/plan/run-options.js';
import { planRun } from '../../core/plan/run-plan.js';
import { tryHooks, type HuntDeps } from '../hunt/run-hunt.js';
import { boosts, describeShrunk, shrinkPlan, type ShrinkPlan, type ShrinkStep } from './delta-debug.js';
import { readTryDir } from '../hunt/read-try-dir.js';
import { failsLikeOriginal, failureSigns, type FailureSign } from '../hunt/failure-signs.js';
import { formatRate, reproduceRule } from './reproduce-rule.js';
import type { Tally } from '../hunt/sequential-decision.js';
import { reproducer, ShrinkInterrupted } from './reproducer.js';
import { courseJson, shrinkWithRule, stepsLine } from './shrink-with-rule.js';

export interface ShrinkOptions {
  runDir: string;
  /** K: re-runs per candidate, by the fixed rule. Without `runs` and `minFails`: the sequential test. */
  runs?: number;
  /** k: failures among the K re-runs to keep a candidate, by the fixed rule. */
  minFails?: number;
  maxCandidates: number;
  /** Where the re-runs go (shrink.json and one run directory per re-run). */
  shrinkDir: string;
  /**
   * Re-runs of the original plan already made (the hunt confirming its find): the rule goes on from them
   * instead of starting again.
   */
  originalRuns?: Tally & { failingRun: string | null };
}

export interface ShrinkReport {
  exitCode: number;
  lines: string[];
  /** The shrunk plan's options (the original's when it did not reproduce). */
  options: RunOptions;
  /** The shrunk plan's re-runs (the original's when it did not reproduce). */
  reproduced: Tally;
  steps: ShrinkStep[];
}

/** The failing run's options, its schedule as a script; a UsageError (254) when the directory is not a failed run. */
export function failedRunOptions(runDir: string): RunOptions {
  const hint = 'Give the run directory a failing `fencecheck run` or `fencecheck hunt` printed (`run: DIR`).';
  if (!isRunDir(runDir)) throw new UsageError(`${runDir}: not a run directory (no test.json and history.jsonl)`, hint);
  const store = RunStore.open(runDir);
  const results = store.readResults();
  if (results === null || results.valid !== false)
    throw new UsageError(
      `${runDir}: this run did not fail (verdict ${results === null ? 'missing' : String(results.valid)}); there is nothing to shrink`,
      hint,
    );
  // The stored plan is what the run did: its options and windows as they were planned (a plan.json is checked as read).
  const stored = store.readPlan();
  if (stored !== null) {
    const { name: _name, ...options } = stored.options;
    return { ...options, script: stored.windows, nemesis: [...new Set(stored.windows.map((w) => w.fault))] };
  }
  // A run from before plans were stored: its options from test.json, the schedule planned again.
  const t = store.requireTest() as unknown as Record<string, unknown>;
  const o = Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, t[k] ?? (DEFAULTS as Record<string, unknown>)[k]])) as unknown as RunOptions;
  for (const k of ['backend', 'resource', 'workload', 'client', 'proxies', 'waitReplicas', 'minReplicas', 'provider'] as const)
    if (t[k] !== undefined) (o as unknown as Record<string, unknown>)[k] = t[k];
  // The script through the --script reader: a hand-edited test.json gets the same checks as the flag.
  const script = t['script'] === undefined ? planRun(o).windows : parseScript(JSON.stringify(t['script']));
  return { ...o, script, nemesis: [...new Set(script.map((w) => w.fault))] };
}

export { failureSigns } from '../hunt/failure-signs.js';

/** The lock run's re-runs for the reproducer: each candidate's options through the hunt's deps, read back with the original's signs. */
function lockReproducer(o: ShrinkOptions, original: RunOptions, deps: HuntDeps, signs: readonly FailureSign[]) {
  return reproducer<ShrinkPlan>({
    lanes: deps.lanes ?? 1,
    stopped: () => deps.stopped(),
    log: (l) => deps.log(l),
    describe: describeShrunk,
    reRun: async (plan, attempt, n, lane) => {
      const options = withPlan(original, plan, o.shrinkDir, attempt);
      const { runDir } = await deps.runTry({ ...options, name: `${options.name}-r${n}` }, tryHooks(deps.log), lane);
      if (deps.stopped()) throw new ShrinkInterrupted();
      const { outcome, miss } = await deps.readTry(runDir, options);
      return { failed: failsLikeOriginal(outcome, miss, signs), runDir };
    },
  });
}

export async function runShrink(o: ShrinkOptions, deps: HuntDeps): Promise<ShrinkReport> {
  const startedMs = deps.now();
  const original = failedRunOptions(o.runDir);
  mkdirSync(o.shrinkDir, { recursive: true });
  // How the original failed, read from its own directory: every re-run must fail that way.
  const signs = failureSigns((await readTryDir(o.runDir, original, () => undefined))?.miss ?? null);
  if (signs.length > 0) deps.log(`shrink: a re-run counts as failing only with ${signs.join(', ')}, as the original showed`);
  const rule = reproduceRule(o);
  const r = lockReproducer(o, original, deps, signs);
  const start = planOf(original);
  const course = await shrinkWithRule(start, rule, r, shrinkPlan, { ...o, boosts }, (l) => deps.log(l));
  if (!course.shrunk) return notReproduced(original, course.lines, course.reproduced);
  const { final, interrupted } = course;
  const shrunk = course;
  const options = withPlan(original, shrunk.plan, o.shrinkDir, 0);
  const { resultsDir: _dir, name: _name, ...replayable } = options;
  // The replay writes where the failing run was written (a hunt's try: the hunt's directory), as its own replay does.
  const replay = replayCommand({ ...replayable, resultsDir: original.resultsDir ?? DEFAULTS.resultsDir });
  const lines = [
    `shrunk to ${describeShrunk(shrunk.plan)}; reproduced ${formatRate(final)}${interrupted ? ' (interrupted: the smallest plan confirmed so far)' : ''}`,
    `plan: ${JSON.stringify(shrunk.plan.script)}`,
    `replay: ${replay}`,
    `run: ${final.failingRun}`,
    stepsLine(shrunk),
  ];
  // The rates with their intervals: the original's re-runs (what candidates were held to) and the shrunk plan's.
  const json = {
    from: o.runDir,
    rule: rule.json,
    original: planOf(original),
    ...courseJson(course),
    replay,
    // How long the shrink took, on the hunt's clock (what bench:hunt reports as a shrink's cost).
    elapsedMs: deps.now() - startedMs,
  };
  writeFileAtomic(join(o.shrinkDir, 'shrink.json'), JSON.stringify(json, null, 2) + '\n');
  if (final.failingRun) await deps.markShrunk?.(final.failingRun, { summary: lines[0], from: o.runDir, shrunk: shrunk.plan, replay });
  if (final.failingRun) lines.push(`report: ${join(final.failingRun, 'report.html')} (opens on the story)`);
  return { exitCode: 1, lines, options, reproduced: { fails: final.fails, of: final.of }, steps: shrunk.steps };
}

function notReproduced(original: RunOptions, lines: string[], got: Tally): ShrinkReport {
  return { exitCode: 2, lines, options: original, reproduced: { fails: got.fails, of: got.of }, steps: [] };
}

function planOf(o: RunOptions): ShrinkPlan {
  return { script: o.script ?? [], clients: o.clients, timeLimitS: o.timeLimitS, rate: o.rate };
}

function withPlan(o: RunOptions, p: ShrinkPlan, shrinkDir: string, attempt: number): RunOptions {
  return {
    ...o,
    script: p.script,
    nemesis: [...new Set(p.script.map((w) => w.fault))],
    clients: p.clients,
    timeLimitS: p.timeLimitS,
    rate: p.rate,
    resultsDir: shrinkDir,
    name: `candidate-${String(attempt).padStart(3, '0')}`,
  };
}
