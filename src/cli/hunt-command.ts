/**
 * `fencecheck hunt`: search fault plans for a violation on one target
 * (src/hunt/run-hunt.ts). Exits 1 when it found one, 0 when the budget ran
 * out with evidence and no violation, 3 when nothing dangerous was tested,
 * 254 on bad input. Ctrl-C ends the hunt after tearing down the try under
 * way, with what it found so far.
 */
import { parallelLanes, type Parallel } from './parallel-flag.js';
import { join } from 'node:path';
import type { Command } from 'commander';
import { clientCommand, CLIENT_HELP } from './run-flags.js';
import { REDIS_PERSISTENCE, type RedisPersistence } from '../../core/plan/redis-persistence.js';
import { huntDirName } from '../hunt/hunt-dir.js';
import { FLAG_RANGES, numberFlag, oneOf, seedFlag, withRange } from './parse-options.js';
import { WANTED_SIGNS, type WantedSign } from '../hunt/near-miss.js';
import { parseInRange } from '../../core/number-range.js';
import { RUN_RANGES } from '../../core/plan/run-options.js';
import { budgetDuration } from './hunt-flags.js';
import { HUNT_BACKENDS, HUNT_FAULTS, HUNT_RESOURCES, huntQueueNow, QUEUE_HUNT_FAULTS, QUEUE_TRY_SHAPE } from './hunt-queue-command.js';
import { QUEUE_FAULTS, QUEUE_SERVERS } from '../../core/queue/queue-options.js';
import { QUEUE_MODES } from '../../core/queue/queue-libraries.js';
import { parseShard, type Shard } from '../compare/shard.js';
import { LOCK_BACKENDS, RESOURCE_MODES, WORKLOADS, type LockBackend, type LockWorkload, type ResourceMode } from '../../core/vocabulary.js';
import { FAULT_KINDS, type FaultKind } from '../../core/generator/faults/registry.js';
import { huntFaults, TRY_SHAPE, type HuntTarget } from '../hunt/hunt-target.js';
import { UsageError } from '../../core/errors.js';
import { mkdirSync } from 'node:fs';
import { mergeHunts } from '../hunt/merge-hunts.js';
import { writeFileAtomic } from '../../runtime/store/atomic-write.js';

interface HuntFlags {
  merge?: string[];
  parallel?: number;
  backend: LockBackend;
  client?: string;
  resource: ResourceMode;
  workload: LockWorkload;
  faults?: string[];
  budget?: number;
  budgetRuns?: number;
  seed: number;
  results: string;
  keepGoing: boolean;
  first: boolean;
  untilRuledOut?: number;
  shard?: Shard;
  timeLimit?: number;
  clients?: number;
  ttlMs?: number;
  checkHold: boolean;
  redisPersistence: RedisPersistence;
  /** Shrink the first violation on the same cluster (default); `--no-shrink` only prints the command. */
  shrink: boolean;
  shrinkRuns?: number;
  shrinkMinFails?: number;
  shrinkMaxCandidates: number;
  want?: WantedSign;
}

const HUNT_WORKLOADS = [...WORKLOADS, 'queue'] as const;

/** `--faults a,b`: names a lock hunt or a queue hunt takes (which of them applies is the workload's to say). */
function huntFaultNames(text: string): string[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw new UsageError('Expected `--faults` to name at least one fault kind, got none', `Name some of ${HUNT_FAULTS.join(', ')}.`);
  for (const f of items)
    if (!(HUNT_FAULTS as readonly string[]).includes(f))
      throw new UsageError(
        `Expected \`--faults\` to list fault kinds among ${FAULT_KINDS.join(', ')} (a queue hunt: ${QUEUE_FAULTS.join(', ')}), got \`${f}\``,
        'Leave --faults out to hunt with every kind that applies to the target.',
      );
  return items;
}

/** A lock hunt given a queue's server, mode or fault: refused with the flag that gives them meaning. */
function refuseQueueHuntValues(flags: HuntFlags): void {
  const lockish = (value: string | undefined, lock: readonly string[]): boolean => value === undefined || lock.includes(value);
  const stray =
    (!lockish(flags.backend, LOCK_BACKENDS) && `--backend ${flags.backend}`) ||
    (!lockish(flags.resource, RESOURCE_MODES) && `--resource ${flags.resource}`) ||
    ((flags.faults ?? []).some((f) => !(FAULT_KINDS as readonly string[]).includes(f)) &&
      `--faults ${(flags.faults ?? []).filter((f) => !(FAULT_KINDS as readonly string[]).includes(f)).join(',')}`);
  if (stray)
    throw new UsageError(
      `Expected a lock hunt's target, got \`${stray}\` (a job queue's)`,
      'Add --workload queue to hunt a job queue (docs/queues.md), or name a lock service, a lock resource mode and lock faults.',
    );
}

/** etcd raises a lease below its minimum (about 2 s here), so the windows sized from a 1 s lease would be too short. */
const ETCD_TTL_MS = 2000;

export function registerHuntCommand(program: Command): void {
  program
    .command('hunt')
    .description('Search fault plans (faults aimed at lock events, swarm subsets, feedback from near misses) for a violation of the data or the lock.')
    .option(
      '--backend <name>',
      `lock service: ${LOCK_BACKENDS.join(', ')} (required unless --merge); with --workload queue the queue's server: ${QUEUE_SERVERS.join(', ')}`,
      oneOf('--backend', HUNT_BACKENDS),
    )
    .option(
      '--resource <mode>',
      `protected resource mode: ${RESOURCE_MODES.join(', ')} (required unless --merge); with --workload queue: ${QUEUE_MODES.join(', ')}`,
      oneOf('--resource', HUNT_RESOURCES),
    )
    .option('--merge <dirs...>', 'one answer from the hunt directories of a sharded hunt (--shard i/N on each CI job); no cluster')
    .option('--client <command>', CLIENT_HELP, clientCommand)
    .option(
      '--workload <name>',
      `workload: ${WORKLOADS.join(', ')}, or queue (a job queue's workers: docs/queues.md)`,
      oneOf('--workload', HUNT_WORKLOADS),
      'lock-counter',
    )
    .option(
      '--faults <list>',
      `fault kinds to hunt with, comma-separated (default: every kind that applies; a queue hunt: ${QUEUE_HUNT_FAULTS.join(',')}, of ${QUEUE_FAULTS.join(', ')})`,
      huntFaultNames,
    )
    .option('--budget <duration>', 'stop starting tries after this long: 10m, 90s, 1h; 1s..168h (default 10m unless --budget-runs)', budgetDuration)
    .option('--budget-runs <n>', withRange('stop after this many tries', FLAG_RANGES['--budget-runs']), numberFlag('--budget-runs'))
    .option('--seed <n>', withRange("seed of the search (a seed and the tries' outcomes replay the same plans)", FLAG_RANGES['--seed']), seedFlag('--seed'), 1)
    .option('--results <dir>', 'where the hunt directory goes (<dir>/hunt/<backend>-<resource>-<stamp>/)', 'results')
    .option('--keep-going', 'go on after a violation until the budget is spent', false)
    .option(
      '--until-ruled-out <percent>',
      withRange(
        'go on until the clean tested tries rule out any failure that shows in at least this share of tries (95 % confidence; 5: 59 tested tries), or the budget ends, saying how far it got',
        FLAG_RANGES['--until-ruled-out'],
      ),
      numberFlag('--until-ruled-out'),
    )
    .option(
      '--first',
      'stop at the first violation whatever its reproduction rate (by default a rare one, below 4 of 5 re-runs, is kept and the hunt goes on for a more reproducible one)',
      false,
    )
    .option(
      '--want <sign>',
      `count as the find only a violation whose try shows this sign, and go on past the others: ${Object.keys(WANTED_SIGNS).join(', ')} (valid-double-hold: two holders both within their grants' validity, the lock's own failure, not a late write)`,
      oneOf('--want', Object.keys(WANTED_SIGNS) as WantedSign[]),
    )
    .option(
      '--parallel <n>',
      withRange(
        'clusters at once, each in a slot of its own, keeping it warm for every try (default: what the machine affords, two a core)',
        FLAG_RANGES['--parallel'],
      ),
      numberFlag('--parallel'),
    )
    .option('--shard <i/N>', "this machine's share of a sharded hunt (an independent search per shard)", parseShard)
    .option(
      '--time-limit <s>',
      withRange(`seconds of workload per try (default ${TRY_SHAPE.timeLimitS}; a queue hunt ${QUEUE_TRY_SHAPE.timeLimitS})`, RUN_RANGES.timeLimitS),
      parseInRange('--time-limit', RUN_RANGES.timeLimitS),
    )
    .option(
      '--clients <n>',
      withRange(`clients per try (default ${TRY_SHAPE.clients}; a queue hunt: at most ${QUEUE_TRY_SHAPE.workers} workers, from 2)`, RUN_RANGES.clients),
      parseInRange('--clients', RUN_RANGES.clients),
    )
    .option(
      '--ttl-ms <ms>',
      withRange(
        `lock lease per try (default ${TRY_SHAPE.ttlMs}; etcd ${ETCD_TTL_MS}: it raises shorter leases to its minimum; a queue hunt: the library's lock, ${QUEUE_TRY_SHAPE.lockMs})`,
        RUN_RANGES.ttlMs,
      ),
      parseInRange('--ttl-ms', RUN_RANGES.ttlMs),
    )
    .option('--check-hold', 'careful clients: no resource access once etcd / ZooKeeper say the hold is lost', false)
    .option(
      '--redis-persistence <mode>',
      `redis and redlock: ${REDIS_PERSISTENCE.join(', ')} (a kill without persistence restarts a server empty, its INCR counter too)`,
      oneOf('--redis-persistence', REDIS_PERSISTENCE),
      'none',
    )
    .option('--no-shrink', 'after a violation, print the shrink command instead of shrinking the failing try')
    .option(
      '--shrink-runs <K>',
      withRange("the shrink's fixed rule: re-runs of each candidate (default: its sequential test decides)", FLAG_RANGES['--shrink-runs']),
      numberFlag('--shrink-runs'),
    )
    .option(
      '--shrink-min-fails <k>',
      withRange("the shrink's fixed rule: failures among them to keep a candidate", FLAG_RANGES['--shrink-min-fails']),
      numberFlag('--shrink-min-fails'),
    )
    .option(
      '--shrink-max-candidates <n>',
      withRange('at most this many shrink candidates', FLAG_RANGES['--shrink-max-candidates']),
      numberFlag('--shrink-max-candidates'),
      40,
    )
    .addHelpText(
      'after',
      `
Each try is a short run (its own run directory under the hunt's) whose faults wait for lock events
(a holder between its read and its write, an acquire in flight, a lease about to end, right after a grant).
--parallel N tests N plans at once, each on a cluster of its own (a slot); a find's re-runs go first.
A violating try's plan is re-run at once until 4 of 5 re-runs fail as it did, or cannot: a reproducible
find ends the hunt; a rare one is reported with its rate and the hunt goes on for a more reproducible one
(--first stops at it). Exit: 1 a violation (the most reproducible find is shrunk on the same cluster
unless --no-shrink; --keep-going spends the whole budget on tries, re-running none), 0 none in the budget with evidence and its weight, 3 nothing dangerous tested, 254 bad
input. Needs root. See docs/hunt.md. Examples:
  fencecheck hunt --backend redis --resource none --faults client-pause --budget-runs 5
  fencecheck hunt --backend etcd --resource fence-claim --budget 10m --seed 3
  fencecheck hunt --workload queue --backend redis --client bullmq --resource none --budget 5m   # docs/queues.md
  fencecheck hunt --merge results/hunt/etcd-fence-claim-*-shard*   # one answer from the shards of --shard i/N`,
    )
    .action(async (flags: HuntFlags) => {
      if (flags.merge !== undefined) return void (process.exitCode = mergeNow(flags.merge, flags.results));
      if (flags.budget !== undefined && flags.budgetRuns !== undefined)
        throw new UsageError(
          'Expected one of `--budget` and `--budget-runs`, got both',
          'Give a time budget (--budget 10m) or a number of tries (--budget-runs 20).',
        );
      // A queue hunt reads its flags (queueHuntBase: every refusal a 254) before any cluster starts.
      if ((flags.workload as string) === 'queue') return void (process.exitCode = await huntQueueNow(flags));
      refuseQueueHuntValues(flags);
      for (const f of ['backend', 'resource'] as const)
        if (flags[f] === undefined)
          throw new UsageError(
            `Expected \`--${f}\`, got none`,
            'Name the target: fencecheck hunt --backend redis --resource none, or merge sharded hunts with --merge DIR...',
          );
      if (flags.shrinkMinFails !== undefined && flags.shrinkMinFails > (flags.shrinkRuns ?? 5))
        throw new UsageError(
          `Expected \`--shrink-min-fails\` to be at most \`--shrink-runs\` (${flags.shrinkRuns ?? '5, its default'}), got \`${flags.shrinkMinFails}\``,
          'k failures of K re-runs: k <= K, e.g. --shrink-runs 5 --shrink-min-fails 4.',
        );
      const target: HuntTarget = {
        backend: flags.backend,
        resource: flags.resource,
        workload: flags.workload,
        checkHold: flags.checkHold,
        ...(flags.redisPersistence !== 'none' ? { redisPersistence: flags.redisPersistence } : {}),
        ...(flags.client !== undefined ? { client: flags.client } : {}),
      };
      const faults = huntFaults(target, flags.faults as FaultKind[] | undefined);
      // Bad input before any cluster: more clusters than the machine affords.
      const parallel = parallelLanes(flags.parallel, undefined, undefined, 'warm');
      process.exitCode = await huntNow(target, faults, flags, parallel);
    });
}

/** `--merge`: the shards' tries as one hunt, written to <results>/hunt/<target>-merged-<stamp>/hunt.json. */
function mergeNow(dirs: string[], results: string): number {
  const merged = mergeHunts(dirs);
  const t = merged.of.target as HuntTarget;
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const dir = join(results, 'hunt', `${t.backend}-${t.resource}-merged-${stamp}`);
  mkdirSync(dir, { recursive: true });
  const tries = merged.records.map((r) => ({
    index: r.plan.index,
    origin: r.plan.origin,
    swarm: r.plan.swarm,
    hold: r.plan.hold,
    patience: r.plan.patience,
    windows: r.plan.windows,
    runDir: r.runDir,
    replay: r.replay,
    outcome: r.outcome,
    nearMiss: r.miss,
    error: r.error,
    endedAtMs: r.endedAtMs,
  }));
  writeFileAtomic(
    join(dir, 'hunt.json'),
    JSON.stringify(
      {
        ...merged.of,
        ...(merged.want ? { want: merged.want } : {}),
        mergedFrom: dirs,
        shards: merged.shards,
        interrupted: false,
        exitCode: merged.exitCode,
        lines: merged.lines,
        tries,
      },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(
    `hunt: merged ${merged.shards.length} shard${merged.shards.length === 1 ? '' : 's'} (${merged.shards.join(', ')})\n` +
      merged.lines.join('\n') +
      `\nhunt: ${join(dir, 'hunt.json')}\n`,
  );
  return merged.exitCode;
}

async function huntNow(target: HuntTarget, faults: FaultKind[], flags: HuntFlags, parallel: Parallel): Promise<number> {
  const { runHunt } = await import('../hunt/run-hunt.js');
  const { realHuntDeps } = await import('../hunt/real-hunt-deps.js');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const huntDir = join(flags.results, 'hunt', huntDirName(target, stamp, flags.shard));
  const log = (l: string): void => void process.stderr.write(l + '\n');
  // Ctrl-C: the try under way tears its cluster down (its own hooks), then the hunt ends with what it found.
  let stopped = false;
  const onSignal = (): void => {
    if (!stopped) log('hunt: stopping after the try under way is torn down');
    stopped = true;
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, onSignal);
  const budget = flags.budgetRuns !== undefined ? { runs: flags.budgetRuns } : { ms: flags.budget ?? 600_000 };
  log(
    `hunt: ${target.backend} / ${target.resource} / ${target.workload}, faults ${faults.join(',')}, budget ${budget.runs !== undefined ? `${budget.runs} tries` : `${Math.round(budget.ms! / 1000)} s`}, seed ${flags.seed}, ${parallel.said}; ${huntDir}`,
  );
  const deps = realHuntDeps(log, () => stopped, parallel.lanes);
  const shape = {
    timeLimitS: flags.timeLimit ?? TRY_SHAPE.timeLimitS,
    clients: flags.clients ?? TRY_SHAPE.clients,
    ttlMs: flags.ttlMs ?? (target.backend === 'etcd' ? ETCD_TTL_MS : TRY_SHAPE.ttlMs),
  };
  try {
    const report = await runHunt(
      {
        target,
        faults,
        budget,
        seed: flags.seed,
        huntDir,
        keepGoing: flags.keepGoing,
        first: flags.first,
        ...(flags.untilRuledOut !== undefined ? { untilRuledOut: flags.untilRuledOut / 100 } : {}),
        shape,
        ...(flags.shard ? { shard: flags.shard } : {}),
        ...(flags.want ? { want: flags.want } : {}),
      },
      deps,
    );
    process.stdout.write(report.lines.join('\n') + `\nhunt: ${join(report.huntDir, 'hunt.json')}\n`);
    const failing = report.found?.record.runDir;
    // The failing try shrunk on the same warm cluster; the hunt's exit code stays its own (a violation was found either way).
    if (flags.shrink && failing && !stopped) {
      const rule =
        flags.shrinkRuns === undefined && flags.shrinkMinFails === undefined
          ? 'each candidate re-run until a sequential test keeps or drops it'
          : `${flags.shrinkMinFails ?? Math.min(4, flags.shrinkRuns ?? 5)} of ${flags.shrinkRuns ?? 5} re-runs must fail`;
      log(`hunt: shrinking try ${report.found!.record.plan.index + 1} (${rule}; --no-shrink skips this)`);
      const { runShrink } = await import('../shrink/run-shrink.js');
      const shrinkDir = join(report.huntDir, 'shrink');
      const fixed = {
        ...(flags.shrinkRuns !== undefined ? { runs: flags.shrinkRuns } : {}),
        ...(flags.shrinkMinFails !== undefined ? { minFails: flags.shrinkMinFails } : {}),
      };
      // The hunt's re-runs of the find are the shrink's first measurements of it (the find itself not counted: it was
      // chosen for failing), so they are not made again.
      const confirmed = report.found!.record.reproduced;
      const originalRuns = confirmed === undefined ? {} : { originalRuns: { fails: confirmed.fails, of: confirmed.of, failingRun: confirmed.failingRun } };
      const shrunk = await runShrink({ runDir: failing, ...fixed, maxCandidates: flags.shrinkMaxCandidates, shrinkDir, ...originalRuns }, deps);
      process.stdout.write(shrunk.lines.join('\n') + `\nshrink: ${join(shrinkDir, 'shrink.json')}\n`);
    }
    return report.exitCode;
  } finally {
    await deps.close?.();
  }
}
