/**
 * `runQueueShrink`: a failing queue run's plan shrunk on real clusters, as
 * runShrink shrinks a lock run's. The run's options and windows come back
 * from its test.json and plan.json; the original plan is re-run until its
 * rate is known (shrinking starts only if it is not too rare; a hunt's
 * confirmation re-runs count), then each candidate of the pure core
 * (queue-shrink-plan.ts) until it is clearly as reproducible or clearly less,
 * on as many slots as there are lanes. A re-run fails only the way the
 * original did (queue-failure-signs.ts). Every rate with Wilson's interval.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { failsLikeQueueOriginal, queueFailureSigns } from '../../core/queue/queue-failure-signs.js';
import { queueReplayCommand, type QueueRunOptions } from '../../core/queue/queue-options.js';
import { NEMESIS_OF_WINDOW, queueScriptText } from '../../core/queue/queue-window.js';
import { readQueueRunOptions, readResultsJson } from '../../runtime/store/read-run-files.js';
import { isRunDir } from '../../runtime/store/run-dir-entries.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import type { QueueHuntDeps } from '../hunt/run-queue-hunt.js';
import type { Tally } from '../hunt/sequential-decision.js';
import { describeQueueShrunk, queueBoosts, shrinkQueuePlan, type QueueShrinkPlan } from './queue-shrink-plan.js';
import { formatRate, reproduceRule } from './reproduce-rule.js';
import { reproducer } from './reproducer.js';
import { courseJson, shrinkWithRule, stepsLine } from './shrink-with-rule.js';
import type { ShrinkOptions } from './run-shrink.js';

export interface QueueShrinkReport {
  exitCode: number;
  lines: string[];
  options: QueueRunOptions;
  reproduced: Tally;
}

/**
 * A failed queue run's options with its windows as they were planned, and the signs of its failure; null when the
 * directory is not a queue run's (the lock shrink's then). A queue run that did not fail is a UsageError (254).
 */
export function failedQueueRun(runDir: string): { options: QueueRunOptions; signs: ReturnType<typeof queueFailureSigns> } | null {
  const hint = 'Give the run directory of a failing `fencecheck run --workload queue` or a queue hunt printed (`run: DIR`).';
  if (!isRunDir(runDir)) return null;
  // A run directory is <results>/<name>/<stamp>: the replay writes where the failing run was written.
  const options = readQueueRunOptions(runDir, dirname(dirname(runDir)));
  if (options === null) return null;
  const results = readResultsJson(runDir);
  if (results === null || results.valid !== false)
    throw new UsageError(
      `${runDir}: this queue run did not fail (verdict ${results === null ? 'missing' : String(results.valid)}); there is nothing to shrink`,
      hint,
    );
  return { options, signs: queueFailureSigns(results) };
}

export async function runQueueShrink(o: ShrinkOptions, deps: QueueHuntDeps): Promise<QueueShrinkReport> {
  const startedMs = deps.now();
  const failed = failedQueueRun(o.runDir);
  if (failed === null)
    throw new UsageError(
      `${o.runDir}: ${existsSync(o.runDir) ? "not a queue run's directory (no test.json of workload queue with its history)" : 'no such directory'}`,
      'Give the run directory a failing queue run printed (`run: DIR`).',
    );
  const { options: original, signs } = failed;
  mkdirSync(o.shrinkDir, { recursive: true });
  if (signs.length > 0) deps.log(`shrink: a re-run counts as failing only with ${signs.join(', ')}, as the original showed`);
  const rule = reproduceRule(o);
  const r = reproducer<QueueShrinkPlan>({
    lanes: deps.lanes,
    stopped: () => deps.stopped(),
    log: (l) => deps.log(l),
    describe: describeQueueShrunk,
    reRun: async (plan, attempt, n, lane) => {
      const options = withQueuePlan(original, plan, o.shrinkDir, attempt);
      const { runDir, results } = await deps.runTry({ ...options, name: `${options.name}-r${n}` }, lane);
      return { failed: failsLikeQueueOriginal(results, signs), runDir };
    },
  });
  const start = queuePlanOf(original);
  const course = await shrinkWithRule(start, rule, r, shrinkQueuePlan, { ...o, boosts: queueBoosts }, (l) => deps.log(l));
  if (!course.shrunk) return { exitCode: 2, lines: course.lines, options: original, reproduced: course.reproduced };
  const { final, interrupted } = course;
  const shrunk = course;
  const { name: _name, ...replayable } = withQueuePlan(original, shrunk.plan, original.resultsDir, 0);
  const replay = queueReplayCommand(replayable);
  const lines = [
    `shrunk to ${describeQueueShrunk(shrunk.plan)}; reproduced ${formatRate(final)}${interrupted ? ' (interrupted: the smallest plan confirmed so far)' : ''}`,
    `plan: ${queueScriptText(shrunk.plan.windows)}`,
    `replay: ${replay}`,
    `run: ${final.failingRun}`,
    stepsLine(shrunk),
  ];
  const json = {
    workload: 'queue',
    from: o.runDir,
    rule: rule.json,
    signs,
    original: start,
    ...courseJson(course),
    replay,
    elapsedMs: deps.now() - startedMs,
  };
  writeFileAtomic(join(o.shrinkDir, 'shrink.json'), JSON.stringify(json, null, 2) + '\n');
  if (final.failingRun) lines.push(`report: ${join(final.failingRun, 'report.html')}`);
  return { exitCode: 1, lines, options: replayable, reproduced: { fails: final.fails, of: final.of } };
}

function queuePlanOf(o: QueueRunOptions): QueueShrinkPlan {
  return { windows: o.windows ?? [], workers: o.workers, timeLimitS: o.timeLimitS, rate: o.rate };
}

function withQueuePlan(o: QueueRunOptions, p: QueueShrinkPlan, resultsDir: string, attempt: number): QueueRunOptions {
  // The faults the windows strike, no others: a replay's --nemesis says what the plan does.
  const nemesis = [...new Set(p.windows.map((w) => NEMESIS_OF_WINDOW[w.fault]))];
  return {
    ...o,
    nemesis: nemesis.length > 0 ? nemesis : o.nemesis,
    windows: p.windows,
    workers: p.workers,
    timeLimitS: p.timeLimitS,
    rate: p.rate,
    resultsDir,
    name: `candidate-${String(attempt).padStart(3, '0')}`,
  };
}
