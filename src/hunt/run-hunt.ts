/**
 * `runHunt`: the thin loop around the search (search.ts). Each try is a
 * normal short run (runLockTest, its own run directory under the hunt's),
 * read back as a near miss, fed to the search; the loop stops at the first
 * violation (unless keepGoing), when the budget (time or tries) is spent, or
 * when asked to stop (Ctrl-C: the try under way is torn down by the run's
 * own hooks and the hunt ends with what it found). hunt.json is rewritten
 * after each try.
 *
 * Every try's RunHooks are made in one place (tryHooks), so what all tries
 * share (a warm cluster kept across runs, say) is added there once.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { FencecheckError } from '../../core/errors.js';
import { Prng } from '../../core/random/prng.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';
import type { RunHooks } from '../run/run-lock-test.js';
import type { RunOptions } from '../../core/plan/run-options.js';
import type { FaultKind } from '../../core/generator/faults/registry.js';
import { huntOutcome, huntProgress, type HuntOutcome, type TryRecord } from './hunt-outcome.js';
import { huntSpace, tryOptions, type HuntTarget, type TryShape } from './hunt-target.js';
import { showsWanted, type WantedSign } from './near-miss.js';
import { HuntSearch } from './search.js';
import { CONFIRM, HuntFinds, confirmFind, confirmationSaid, isReproducible } from './confirm-find.js';
import type { HuntDeps } from './hunt-deps.js';
import { formatRate } from './reproduction-rate.js';
import { Lanes } from './lanes.js';
import { untilRuledOutLine } from './until-ruled-out.js';
import { endsTheHunt, ProgressLine, runSearchers } from './hunt-loop.js';

export interface HuntOptions {
  target: HuntTarget;
  faults: FaultKind[];
  budget: { ms?: number; runs?: number };
  seed: number;
  /** The hunt's own directory (hunt.json, and one run directory per try below it). */
  huntDir: string;
  keepGoing: boolean;
  /** This machine's share of a sharded hunt: an independent search from the seed's shard stream. */
  shard?: { index: number; count: number };
  shape: TryShape;
  /** Only a violation showing this sign is the find (`--want`); others are recorded as `other-violation` and the hunt goes on. */
  want?: WantedSign;
  /**
   * Stop at the first find whatever its reproduction rate (`--first`); by default a rare find (below 4 of 5
   * re-runs) is kept and the hunt goes on for a more reproducible one (confirm-find.ts).
   */
  first?: boolean;
  /** Re-run each find to measure its rate (default true, but never with keepGoing); false: the single try is the find. */
  confirm?: boolean;
  /**
   * `--until-ruled-out P`: stop as soon as the clean tested tries rule out every failure that shows in at least
   * this share of tries (0.05: 59 tested tries), or when the budget ends (the outcome says how far it got).
   */
  untilRuledOut?: number;
}

export type { HuntDeps };

export interface HuntReport extends HuntOutcome {
  records: TryRecord[];
  interrupted: boolean;
  huntDir: string;
}

/** The one place every try's RunHooks are built. */
export function tryHooks(log: (line: string) => void): RunHooks {
  return { log: (l) => log(`  ${l}`), busyTimeoutMs: 60_000 };
}

export async function runHunt(o: HuntOptions, deps: HuntDeps): Promise<HuntReport> {
  const seed = o.shard ? new Prng(o.seed).fork(`shard-${o.shard.index}`).seed : o.seed;
  // A hunt that weighs a safe spends its tries near the ones that tested (search.ts, aim 'weigh').
  const search = new HuntSearch(huntSpace(o.target, o.faults, o.shape), seed, o.untilRuledOut !== undefined ? 'weigh' : 'find');
  const started = deps.now();
  const records: TryRecord[] = [];
  mkdirSync(o.huntDir, { recursive: true });
  const lanes = new Lanes(deps.lanes ?? 1);
  let failures = 0;
  let underWay = 0;
  /** Set when a try ends the hunt (a find, --until-ruled-out reached, tool failures): no lane starts another. */
  let ended = false;
  /** A reproducible find ends the hunt from the moment its confirmation decides (see HuntFinds). */
  const finds = new HuntFinds(() => ended);
  const progress = new ProgressLine(deps.log);
  const more = (): boolean =>
    !finds.decided &&
    !deps.stopped() &&
    (o.budget.runs === undefined || records.length + underWay < o.budget.runs) &&
    (o.budget.ms === undefined || deps.now() - started < o.budget.ms);

  // One searcher a lane: each takes the search's next plan when its lane is free, so N clusters test N plans at
  // once. With one lane, the order of plans and outcomes is the plain loop's (a seed replays it).
  const searcher = async (): Promise<void> => {
    while (more()) {
      const plan = search.next();
      const options = tryOptions(o.target, o.shape, plan, seed, o.huntDir);
      underWay++;
      const record = await lanes
        .use(async (lane) => {
          deps.log(`hunt: try ${plan.index + 1}${lanes.count > 1 ? ` (lane ${lane + 1})` : ''}: ${describeTry(plan, options)}`);
          return oneTry(options, plan, deps, started, lane);
        })
        .finally(() => underWay--);
      // A try cut short by Ctrl-C says nothing either way.
      if (deps.stopped()) break;
      if (record.outcome === 'unsafe' && !showsWanted(record.miss, o.want)) record.outcome = 'other-violation';
      records.push(record);
      // A violation of another kind feeds the search as the near miss it is for the wanted failure (its signs, not a find).
      if (record.miss)
        search.record(plan, record.outcome === 'other-violation' ? { ...record.miss, violation: false } : record.miss, record.outcome === 'safe');
      failures = record.outcome === 'error' ? failures + 1 : 0;
      // --keep-going spends the budget on tries, counting violations: no find is re-run there.
      if (record.outcome === 'unsafe' && o.confirm !== false && !o.keepGoing && !ended && !deps.stopped()) {
        deps.log(
          `hunt: try ${plan.index + 1} violated; re-running its plan to see how often it fails (until ${CONFIRM.minFails} of ${CONFIRM.runs} fail, or cannot)`,
        );
        record.reproduced = await confirmFind(options, record.miss, deps, tryHooks(deps.log), options.name ?? `try-${plan.index + 1}`, lanes, finds);
        deps.log(
          `hunt: try ${plan.index + 1} reproduced ${formatRate(record.reproduced)}: ${confirmationSaid(record.reproduced, finds.decided, o.first === true)}`,
        );
      }
      writeHuntJson(o, records, false);
      const found = record.outcome === 'unsafe' && !o.keepGoing && (o.first === true || o.confirm === false || isReproducible(record.reproduced));
      progress.say(records.length, found, () => huntProgress(records, deps.now() - started, o.budget, found ? 'stopped at the violation' : undefined));
      if (ended) break;
      ended = endsTheHunt(found, records, o.untilRuledOut, failures, record.error, deps.log);
    }
  };
  await runSearchers(lanes.count, searcher, () => void (ended = true));
  const interrupted = deps.stopped();
  writeHuntJson(o, records, interrupted);
  const outcome = huntOutcome(records, interrupted, o.want);
  if (o.untilRuledOut !== undefined && outcome.found === null) outcome.lines.push(untilRuledOutLine(records, o.untilRuledOut));
  return { ...outcome, records, interrupted, huntDir: o.huntDir };
}

/** A try's plan as its progress line says it: the windows, the hold and patience, where the plan came from. */
function describeTry(plan: TryRecord['plan'], options: RunOptions): string {
  return `${plan.windows.map((w) => `${w.fault}@${w.trigger?.on ?? `${w.at}ms`}`).join(', ')}${plan.hold === 'long' ? `, long holds (lease ${options.ttlMs} ms, hold ${options.holdMs} ms)` : ''}${plan.patience === 'long' ? `, patient calls (${options.callTimeoutMs} ms)` : ''} (${plan.origin.kind === 'swarm' ? `swarm ${plan.swarm.join(',')}` : `${plan.origin.how} of try ${plan.origin.of + 1}`})`;
}

async function oneTry(options: RunOptions, plan: TryRecord['plan'], deps: HuntDeps, started: number, lane: number): Promise<TryRecord> {
  try {
    const { runDir, replay } = await deps.runTry(options, tryHooks(deps.log), lane);
    const { outcome, miss, data } = await deps.readTry(runDir, options);
    return { plan, runDir, replay, outcome, miss, ...(data ? { data } : {}), error: null, endedAtMs: deps.now() - started };
  } catch (err) {
    // Bad input (a target the cluster refuses, a busy machine) ends the hunt: every try would fail the same way.
    if (err instanceof FencecheckError && err.exitCode === 254) throw err;
    const runDir = (err as { runDir?: unknown }).runDir;
    return {
      plan,
      runDir: typeof runDir === 'string' ? runDir : null,
      replay: null,
      outcome: 'error',
      miss: null,
      error: err instanceof Error ? err.message : String(err),
      endedAtMs: deps.now() - started,
    };
  }
}

function writeHuntJson(o: HuntOptions, records: readonly TryRecord[], interrupted: boolean): void {
  const out = huntOutcome(records, interrupted, o.want);
  const doc = {
    target: o.target,
    faults: o.faults,
    ...(o.want ? { want: o.want } : {}),
    budget: o.budget,
    seed: o.seed,
    ...(o.shard ? { shard: o.shard } : {}),
    shape: o.shape,
    interrupted,
    exitCode: out.exitCode,
    lines: out.lines,
    // The try the hunt's answer names (the most reproducible violation, not always the first): its plan's index.
    find: out.found ? out.found.record.plan.index : null,
    tries: records.map((r) => ({
      index: r.plan.index,
      origin: r.plan.origin,
      swarm: r.plan.swarm,
      hold: r.plan.hold,
      patience: r.plan.patience,
      windows: r.plan.windows,
      runDir: r.runDir,
      replay: r.replay,
      outcome: r.outcome,
      ...(r.data ? { data: r.data } : {}),
      ...(r.reproduced ? { reproduced: r.reproduced } : {}),
      nearMiss: r.miss,
      error: r.error,
      endedAtMs: r.endedAtMs,
    })),
  };
  writeFileAtomic(join(o.huntDir, 'hunt.json'), JSON.stringify(doc, null, 2) + '\n');
}
