/**
 * `fencecheck shrink RUN_DIR`: the smallest plan that still fails, each
 * candidate re-run on the real cluster (src/shrink/run-shrink.ts). Prints
 * the minimal plan, its replay command and `shrunk to N fault events, C
 * clients, T s; reproduced k/K`. Exit 1 when the shrunk plan reproduces, 2
 * when the run does not fail again often enough to shrink, 254 when RUN_DIR
 * is not a failed run.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { FLAG_RANGES, numberFlag, withRange } from './parse-options.js';
import { UsageError } from '../../core/errors.js';
import { failedRunOptions } from '../shrink/run-shrink.js';
import { failedQueueRun } from '../shrink/run-queue-shrink.js';
import { parallelLanes } from './parallel-flag.js';
import { huntConfirmationOf, type HuntConfirmation } from '../shrink/hunt-confirmation.js';

interface ShrinkFlags {
  /** Given only to ask for the fixed rule (K re-runs, kept at k failures); absent, the sequential test decides. */
  runs?: number;
  minFails?: number;
  maxCandidates: number;
  results: string;
  parallel?: number;
}

export function registerShrinkCommand(program: Command): void {
  program
    .command('shrink')
    .description('Shrink a failing run to the smallest plan that still fails, every candidate confirmed on the real cluster.')
    .argument('<run-dir>', 'the run directory of a failing run (fencecheck run or hunt prints it)')
    .option(
      '--runs <K>',
      withRange('the fixed rule: re-runs of each candidate (default: the sequential test decides; with --min-fails alone, 5)', FLAG_RANGES['--runs']),
      numberFlag('--runs'),
    )
    .option(
      '--min-fails <k>',
      withRange('the fixed rule: failures among the K re-runs to keep a candidate (with --runs alone, 4, at most K)', FLAG_RANGES['--min-fails']),
      numberFlag('--min-fails'),
    )
    .option('--max-candidates <n>', withRange('at most this many candidates', FLAG_RANGES['--max-candidates']), numberFlag('--max-candidates'), 40)
    .option('--results <dir>', 'where the shrink directory goes (<dir>/shrink/<timestamp>/)', 'results')
    .option(
      '--parallel <n>',
      withRange(
        'clusters at once, each in a slot of its own, keeping it warm for every re-run (default: what the machine affords, two a core)',
        FLAG_RANGES['--parallel'],
      ),
      numberFlag('--parallel'),
    )
    .addHelpText(
      'after',
      `
Drops fault windows and triggers, shortens pauses and delays, takes fewer clients, a shorter time limit
and a lower rate. The original is re-run until its failure rate is known (up to 16 re-runs; a hunt's
try goes on from the hunt's own re-runs of it, read from its hunt.json); each
candidate is then re-run until a sequential test says it fails about as often (kept) or clearly less
(dropped), at most 12 times, so a failure seen in a third of the runs still shrinks; the result's rate
is printed with its 95 % interval. --runs/--min-fails ask for the fixed k-of-K rule instead.
Re-runs of one candidate run side by side on --parallel clusters (one a slot).
A failing queue run (run --workload queue, a queue hunt's try) shrinks the same way: fewer windows,
fewer workers, shorter windows, a shorter run; its replay gives the windows as --script (docs/queues.md).
Needs root. See docs/hunt.md.
  fencecheck shrink results/hunt/redis-none-.../try-001/20261201T092415
  fencecheck shrink results/hunt/redis-none-.../try-001/20261201T092415 --runs 5 --min-fails 4`,
    )
    .action(async (runDir: string, flags: ShrinkFlags) => {
      if (flags.minFails !== undefined && flags.minFails > (flags.runs ?? 5))
        throw new UsageError(
          `Expected \`--min-fails\` to be at most \`--runs\` (${flags.runs ?? '5, its default'}), got \`${flags.minFails}\``,
          'k failures of K re-runs: k <= K, e.g. --runs 5 --min-fails 4.',
        );
      // Bad input before any cluster: not a run directory, or a run that did not fail.
      const queueRun = failedQueueRun(runDir);
      if (queueRun === null) failedRunOptions(runDir);
      const parallel = parallelLanes(flags.parallel, undefined, undefined, 'warm');
      if (queueRun !== null) return void (process.exitCode = await shrinkQueueNow(runDir, flags, parallel.lanes, parallel.said));
      const { runShrink } = await import('../shrink/run-shrink.js');
      const { realHuntDeps } = await import('../hunt/real-hunt-deps.js');
      const log = (l: string): void => void process.stderr.write(l + '\n');
      let stopped = false;
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => void (stopped = true));
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
      const shrinkDir = join(flags.results, 'shrink', stamp);
      log(`shrink: ${runDir}; ${parallel.said}`);
      const deps = realHuntDeps(log, () => stopped, parallel.lanes);
      const fixed = { ...(flags.runs !== undefined ? { runs: flags.runs } : {}), ...(flags.minFails !== undefined ? { minFails: flags.minFails } : {}) };
      const report = await runShrink({ runDir, ...fixed, maxCandidates: flags.maxCandidates, shrinkDir, ...huntRuns(runDir, log) }, deps).finally(() =>
        deps.close?.(),
      );
      process.stdout.write(report.lines.join('\n') + `\nshrink: ${join(shrinkDir, 'shrink.json')}\n`);
      process.exitCode = report.exitCode;
    });
}

/** A queue run's shrink (src/shrink/run-queue-shrink.ts): its candidates on `lanes` slots at once. */
async function shrinkQueueNow(runDir: string, flags: ShrinkFlags, lanes: number, said: string): Promise<number> {
  const { runQueueShrink } = await import('../shrink/run-queue-shrink.js');
  const { realQueueHuntDeps } = await import('../hunt/real-queue-hunt-deps.js');
  const log = (l: string): void => void process.stderr.write(l + '\n');
  let stopped = false;
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => void (stopped = true));
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const shrinkDir = join(flags.results, 'shrink', stamp);
  log(`shrink: a queue run, ${runDir}; ${said}`);
  const fixed = { ...(flags.runs !== undefined ? { runs: flags.runs } : {}), ...(flags.minFails !== undefined ? { minFails: flags.minFails } : {}) };
  const report = await runQueueShrink(
    { runDir, ...fixed, maxCandidates: flags.maxCandidates, shrinkDir, ...huntRuns(runDir, log) },
    realQueueHuntDeps(log, () => stopped, lanes),
  );
  process.stdout.write(report.lines.join('\n') + `\nshrink: ${join(shrinkDir, 'shrink.json')}\n`);
  return report.exitCode;
}

/** A hunt's try: the hunt's re-runs of it (hunt.json), which the shrink goes on from (src/shrink/hunt-confirmation.ts). */
function huntRuns(runDir: string, log: (line: string) => void): { originalRuns?: HuntConfirmation } {
  const found = huntConfirmationOf(runDir, log);
  if (found === null) return {};
  log(`shrink: the hunt's re-runs of this try, from ${found.from}`);
  return { originalRuns: found.runs };
}
