/**
 * `fencecheck hunt --workload queue` and `fencecheck shrink` of a queue run:
 * the hunt command's flags read for a queue (the queue's server, a queue
 * library, a queue mode, the queue's faults, `--clients` the most workers a
 * try runs, `--ttl-ms` the library's lock), checked before any cluster
 * starts; the hunt (src/hunt/run-queue-hunt.ts), then its find shrunk on the
 * same slots (src/shrink/run-queue-shrink.ts) unless `--no-shrink`.
 */
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { QUEUE_MODES, type QueueMode, type QueueServer } from '../../core/queue/queue-libraries.js';
import { QUEUE_FAULTS, QUEUE_SERVERS, validateQueueOptions, type QueueFault, type QueueRunOptions } from '../../core/queue/queue-options.js';
import { FAULT_KINDS } from '../../core/generator/faults/registry.js';
import type { RedisPersistence } from '../../core/plan/redis-persistence.js';
import { LOCK_BACKENDS, RESOURCE_MODES } from '../../core/vocabulary.js';
import { ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { parallelLanes } from './parallel-flag.js';

/** What `--backend`, `--resource` and `--faults` take in a hunt: a lock hunt's, and a queue hunt's. */
export const HUNT_BACKENDS = [...new Set([...LOCK_BACKENDS, ...QUEUE_SERVERS])];
export const HUNT_RESOURCES = [...new Set([...RESOURCE_MODES, ...QUEUE_MODES])];
export const HUNT_FAULTS = [...new Set([...FAULT_KINDS, ...QUEUE_FAULTS])];

/** A queue hunt's try unless the flags say otherwise: long enough for windows past a 2 s lock to meet jobs. */
export const QUEUE_TRY_SHAPE = { timeLimitS: 20, workers: 4, lockMs: 2000, rate: 2, jobMs: 200, recoverMs: 5000, callTimeoutMs: 1000 } as const;
/** The faults a queue hunt strikes unless --faults names others (a server kill without persistence loses jobs every time: asked for, not assumed). */
export const QUEUE_HUNT_FAULTS: readonly QueueFault[] = ['client-pause', 'client-kill', 'client-partition', 'effect-kill', 'client-delay'];

/** The flags of `hunt` that a queue hunt reads. */
export interface QueueHuntFlags {
  backend?: string;
  resource?: string;
  client?: string;
  faults?: string[];
  budget?: number;
  budgetRuns?: number;
  seed: number;
  results: string;
  keepGoing: boolean;
  first: boolean;
  untilRuledOut?: number;
  timeLimit?: number;
  clients?: number;
  ttlMs?: number;
  redisPersistence: RedisPersistence;
  shrink: boolean;
  shrinkRuns?: number;
  shrinkMinFails?: number;
  shrinkMaxCandidates: number;
  /** Lock-hunt flags: refused with --workload queue. */
  checkHold: boolean;
  want?: string;
  shard?: unknown;
  parallel?: number;
}

/** The queue hunt's target and shape from the flags, every refusal a UsageError (254) before any cluster. */
export function queueHuntBase(flags: QueueHuntFlags): { base: QueueRunOptions; faults: QueueFault[] } {
  const lockOnly: [boolean, string][] = [
    [flags.checkHold, '--check-hold'],
    [flags.want !== undefined, '--want'],
    [flags.shard !== undefined, '--shard'],
  ];
  for (const [given, flag] of lockOnly)
    if (given)
      throw new UsageError(
        `Expected no \`${flag}\` with \`--workload queue\``,
        `${flag} shapes a lock hunt; a queue hunt varies its windows, workers and seeds itself.`,
      );
  for (const f of ['backend', 'resource'] as const)
    if (flags[f] === undefined)
      throw new UsageError(
        `Expected \`--${f}\`, got none`,
        'Name the target: fencecheck hunt --workload queue --backend redis --client bullmq --resource none',
      );
  const faults = (flags.faults ?? QUEUE_HUNT_FAULTS) as string[];
  for (const f of faults)
    if (!(QUEUE_FAULTS as readonly string[]).includes(f))
      throw new UsageError(
        `Expected \`--faults\` to list faults a queue hunt strikes (${QUEUE_FAULTS.join(', ')}) with \`--workload queue\`, got \`${f}\``,
        `Leave --faults out for ${QUEUE_HUNT_FAULTS.join(',')}, or name some of ${QUEUE_FAULTS.join(', ')}.`,
      );
  if (flags.client === undefined)
    throw new UsageError(
      'Expected `--client` with `--workload queue`: the queue library to hunt',
      'Name one (`--client bullmq`: docs/queues.md lists them) or a program speaking the queue protocol.',
    );
  const base: QueueRunOptions = {
    backend: flags.backend as QueueServer,
    client: flags.client,
    resource: flags.resource as QueueMode,
    nemesis: faults as QueueFault[],
    timeLimitS: flags.timeLimit ?? QUEUE_TRY_SHAPE.timeLimitS,
    workers: flags.clients ?? QUEUE_TRY_SHAPE.workers,
    rate: QUEUE_TRY_SHAPE.rate,
    jobMs: QUEUE_TRY_SHAPE.jobMs,
    lockMs: flags.ttlMs ?? QUEUE_TRY_SHAPE.lockMs,
    // Drawn for each try (core/queue/queue-hunt-space.ts); these stand for the shape only.
    intervalMs: flags.ttlMs ?? QUEUE_TRY_SHAPE.lockMs,
    durationMs: flags.ttlMs ?? QUEUE_TRY_SHAPE.lockMs,
    recoverMs: QUEUE_TRY_SHAPE.recoverMs,
    callTimeoutMs: QUEUE_TRY_SHAPE.callTimeoutMs,
    seed: flags.seed,
    resultsDir: flags.results,
    ...(flags.redisPersistence !== 'none' ? { redisPersistence: flags.redisPersistence } : {}),
  };
  validateQueueOptions(base);
  return { base, faults: faults as QueueFault[] };
}

export async function huntQueueNow(flags: QueueHuntFlags): Promise<number> {
  const { base, faults } = queueHuntBase(flags);
  // Bad input before any cluster: more clusters than the machine affords.
  const parallel = parallelLanes(flags.parallel);
  ensureWritableDir(flags.results, '`--results`');
  const { runQueueHunt } = await import('../hunt/run-queue-hunt.js');
  const { realQueueHuntDeps } = await import('../hunt/real-queue-hunt-deps.js');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const huntDir = join(flags.results, 'hunt', `${base.backend}-${base.client.replace(/[^a-z0-9-]+/gi, '_').slice(0, 40)}-${base.resource}-queue-${stamp}`);
  const log = (l: string): void => void process.stderr.write(l + '\n');
  let stopped = false;
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(s, () => {
      if (!stopped) log('hunt: stopping after the tries under way end');
      stopped = true;
    });
  const budget = flags.budgetRuns !== undefined ? { runs: flags.budgetRuns } : { ms: flags.budget ?? 600_000 };
  log(
    `hunt: queue ${base.client} on ${base.backend} / ${base.resource}, faults ${faults.join(',')}, tries of ${base.timeLimitS} s with up to ${base.workers} workers and a ${base.lockMs} ms lock, budget ${budget.runs !== undefined ? `${budget.runs} tries` : `${Math.round(budget.ms! / 1000)} s`}, seed ${flags.seed}, ${parallel.said}; ${huntDir}`,
  );
  const deps = realQueueHuntDeps(log, () => stopped, parallel.lanes);
  const report = await runQueueHunt(
    {
      base,
      faults,
      budget,
      seed: flags.seed,
      huntDir,
      keepGoing: flags.keepGoing,
      first: flags.first,
      ...(flags.untilRuledOut !== undefined ? { untilRuledOut: flags.untilRuledOut / 100 } : {}),
    },
    deps,
  );
  process.stdout.write(report.lines.join('\n') + `\nhunt: ${join(report.huntDir, 'hunt.json')}\n`);
  const found = report.found?.record;
  if (flags.shrink && found?.runDir && !stopped) {
    log(`hunt: shrinking try ${report.found!.tryNumber} (--no-shrink skips this)`);
    const { runQueueShrink } = await import('../shrink/run-queue-shrink.js');
    const shrinkDir = join(report.huntDir, 'shrink');
    const fixed = {
      ...(flags.shrinkRuns !== undefined ? { runs: flags.shrinkRuns } : {}),
      ...(flags.shrinkMinFails !== undefined ? { minFails: flags.shrinkMinFails } : {}),
    };
    const c = found.reproduced;
    const originalRuns = c === undefined ? {} : { originalRuns: { fails: c.fails, of: c.of, failingRun: c.failingRun } };
    const shrunk = await runQueueShrink({ runDir: found.runDir, ...fixed, maxCandidates: flags.shrinkMaxCandidates, shrinkDir, ...originalRuns }, deps);
    process.stdout.write(shrunk.lines.join('\n') + `\nshrink: ${join(shrinkDir, 'shrink.json')}\n`);
  }
  return report.exitCode;
}
