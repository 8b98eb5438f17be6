/**
 * `runQueueHunt`: `fencecheck hunt --workload queue`, the queue's own search
 * (issue 31), a loop like runHunt's around a swarm of seeded tries
 * (core/queue/queue-hunt-space.ts): each try a normal queue run in its own
 * directory under the hunt's, on one of `lanes` clusters at once; a
 * violating try's plan re-run at once until its rate is known (4 of 5, or
 * cannot: confirm-find.ts's rule, its re-runs first in line for the lanes);
 * a reproducible find ends the hunt, a rare one is kept and the hunt goes on
 * (unless `first`); `untilRuledOut` stops once the clean tested tries rule
 * out that share of tries; Ctrl-C ends it with what it found. hunt.json is
 * rewritten after each try.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FencecheckError } from '../../core/errors.js';
import type { Outcome } from '../../core/checkers/lock/evidence.js';
import { untilRuledOutLine } from './until-ruled-out.js';
import { endsTheHunt, ProgressLine, runSearchers } from './hunt-loop.js';
import { describeQueueFailure, failsLikeQueueOriginal, queueFailureSigns, type QueueRunVerdict } from '../../core/queue/queue-failure-signs.js';
import { describeQueueTry, queueTry } from '../../core/queue/queue-hunt-space.js';
import type { QueueFault, QueueRunOptions } from '../../core/queue/queue-options.js';
import { planQueueRun } from '../../core/queue/queue-plan.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import { CONFIRM, HuntFinds, confirmByReRuns, confirmationSaid, isReproducible, type Confirmation } from './confirm-find.js';
import { Lanes } from './lanes.js';
import { queueHuntOutcome, queueHuntProgress, type QueueHuntOutcome, type QueueTryRecord } from './queue-hunt-outcome.js';
import { formatRate } from './reproduction-rate.js';

export interface QueueHuntOptions {
  /** The target and the shape every try shares (its `workers` the most a try runs). */
  base: QueueRunOptions;
  faults: QueueFault[];
  budget: { ms?: number; runs?: number };
  seed: number;
  huntDir: string;
  keepGoing: boolean;
  first: boolean;
  untilRuledOut?: number;
}

/** What a queue try hands back: its directory, replay command and verdict (outcome and total-queue's counts). */
export interface QueueTryRun {
  runDir: string;
  replay: string;
  results: QueueRunVerdict & { outcome: Outcome };
}

/** The I/O of a queue hunt or shrink, injected: the real ones run queue runs in slots (real-queue-hunt-deps.ts). */
export interface QueueHuntDeps {
  lanes: number;
  runTry(options: QueueRunOptions, lane: number): Promise<QueueTryRun>;
  now(): number;
  log(line: string): void;
  stopped(): boolean;
}

export interface QueueHuntReport extends QueueHuntOutcome {
  records: QueueTryRecord[];
  interrupted: boolean;
  huntDir: string;
}

export async function runQueueHunt(o: QueueHuntOptions, deps: QueueHuntDeps): Promise<QueueHuntReport> {
  mkdirSync(o.huntDir, { recursive: true });
  const started = deps.now();
  const records: QueueTryRecord[] = [];
  const lanes = new Lanes(deps.lanes);
  let next = 0;
  let underWay = 0;
  let failures = 0;
  let ended = false;
  /** A reproducible find ends the hunt from the moment its confirmation decides (see HuntFinds). */
  const finds = new HuntFinds(() => ended);
  const progress = new ProgressLine(deps.log);
  const more = (): boolean =>
    !finds.decided &&
    !deps.stopped() &&
    (o.budget.runs === undefined || records.length + underWay < o.budget.runs) &&
    (o.budget.ms === undefined || deps.now() - started < o.budget.ms);

  const searcher = async (): Promise<void> => {
    while (more()) {
      const index = next++;
      const { choices, options } = queueTry(o.base, o.faults, o.seed, index, o.huntDir);
      underWay++;
      const record = await lanes
        .use(async (lane) => {
          deps.log(`hunt: try ${index + 1}${lanes.count > 1 ? ` (lane ${lane + 1})` : ''}: ${describeQueueTry(choices)}`);
          return oneTry(options, choices, deps, started, lane);
        })
        .finally(() => underWay--);
      if (deps.stopped()) break;
      records.push(record);
      failures = record.outcome === 'error' ? failures + 1 : 0;
      if (record.outcome === 'unsafe' && !o.keepGoing && !ended) {
        deps.log(
          `hunt: try ${index + 1} violated (${record.failure}); re-running its plan to see how often it fails (until ${CONFIRM.minFails} of ${CONFIRM.runs} fail, or cannot)`,
        );
        record.reproduced = await confirmQueueFind(options, record, deps, lanes, finds);
        deps.log(`hunt: try ${index + 1} reproduced ${formatRate(record.reproduced)}: ${confirmationSaid(record.reproduced, finds.decided, o.first === true)}`);
      }
      writeQueueHuntJson(o, records, false);
      const found = record.outcome === 'unsafe' && !o.keepGoing && (o.first || isReproducible(record.reproduced));
      progress.say(records.length, found, () => queueHuntProgress(records, deps.now() - started, o.budget));
      if (ended) break;
      ended = endsTheHunt(found, records, o.untilRuledOut, failures, record.error, deps.log);
    }
  };
  await runSearchers(lanes.count, searcher, () => void (ended = true));
  const interrupted = deps.stopped();
  writeQueueHuntJson(o, records, interrupted);
  const outcome = queueHuntOutcome(records, interrupted);
  if (o.untilRuledOut !== undefined && outcome.found === null) outcome.lines.push(untilRuledOutLine(records, o.untilRuledOut));
  return { ...outcome, records, interrupted, huntDir: o.huntDir };
}

async function oneTry(
  options: QueueRunOptions,
  choices: QueueTryRecord['choices'],
  deps: QueueHuntDeps,
  started: number,
  lane: number,
): Promise<QueueTryRecord> {
  const windows = planQueueRun(options).stalls.length;
  try {
    const { runDir, replay, results } = await deps.runTry(options, lane);
    const signs = results.outcome === 'unsafe' ? queueFailureSigns(results) : [];
    const redelivered = Number(results.checkers.find((c) => c.checker === 'total-queue')?.stats?.['redelivered'] ?? 0);
    return {
      choices,
      windows,
      runDir,
      replay,
      outcome: results.outcome,
      signs,
      failure: results.outcome === 'unsafe' ? describeQueueFailure(results) : null,
      redelivered,
      error: null,
      endedAtMs: deps.now() - started,
    };
  } catch (err) {
    // Bad input (a target the cluster refuses) ends the hunt: every try would fail the same way.
    if (err instanceof FencecheckError && err.exitCode === 254) throw err;
    const runDir = (err as { runDir?: unknown }).runDir;
    return {
      choices,
      windows,
      runDir: typeof runDir === 'string' ? runDir : null,
      replay: null,
      outcome: 'error',
      signs: [],
      failure: null,
      redelivered: 0,
      error: err instanceof Error ? err.message : String(err),
      endedAtMs: deps.now() - started,
    };
  }
}

/** A find's plan re-run (the same options: the same jobs and windows) until the confirmation rule decides. */
export function confirmQueueFind(
  options: QueueRunOptions,
  find: Pick<QueueTryRecord, 'signs'>,
  deps: QueueHuntDeps,
  lanes: Lanes,
  finds: HuntFinds = new HuntFinds(),
): Promise<Confirmation> {
  return confirmByReRuns(
    async (n, lane) => {
      const { runDir, results } = await deps.runTry({ ...options, name: `${options.name ?? 'find'}-confirm-${n}` }, lane);
      return deps.stopped() ? null : { failed: failsLikeQueueOriginal(results, find.signs), runDir };
    },
    deps,
    lanes,
    finds,
  );
}

function writeQueueHuntJson(o: QueueHuntOptions, records: readonly QueueTryRecord[], interrupted: boolean): void {
  const out = queueHuntOutcome(records, interrupted);
  const { resultsDir: _dir, name: _name, ...base } = o.base;
  const doc = {
    workload: 'queue',
    base,
    faults: o.faults,
    budget: o.budget,
    seed: o.seed,
    interrupted,
    exitCode: out.exitCode,
    lines: out.lines,
    tries: records,
  };
  writeFileAtomic(join(o.huntDir, 'hunt.json'), JSON.stringify(doc, null, 2) + '\n');
}
