/**
 * `fencecheck run --workload queue`: one queue run (src/run/run-queue-test.ts)
 * from the run command's flags, read for a queue (core/queue/queue-options.ts),
 * its verdict printed as the lock run prints its own: one line per checker,
 * the outcome, the run directory, the replay command; exit 0 safe, 1
 * unsafe, 2 unknown, 3 untested, 254 bad arguments.
 */
import { UsageError } from '../../core/errors.js';
import { oneLine } from '../../core/printable.js';
import { QUEUE_MODES, type QueueMode, type QueueServer } from '../../core/queue/queue-libraries.js';
import { LOCK_BACKENDS, SCHEDULED_FAULT_KINDS } from '../../core/vocabulary.js';
import type { RedisPersistence } from '../../core/plan/redis-persistence.js';
import { splitAim } from '../../core/generator/aimed-schedule.js';
import { QUEUE_SERVERS, validateQueueOptions, type QueueFault, type QueueRunOptions } from '../../core/queue/queue-options.js';
import { planQueueRun } from '../../core/queue/queue-plan.js';
import { parseQueueScript } from '../../core/queue/queue-window.js';
import { ensureWritableDir } from '../../runtime/store/writable-dir.js';
import { sharedRunOptions } from './run-flags.js';
import { formatQueueResults } from '../check/format-queue-results.js';
import { outcomeExitCode } from '../../core/run-files/stored-outcome.js';
import type { CliFlags } from './cli-flags.js';
import { runInFreeSlot } from '../run/run-in-free-slot.js';

/** The flags a lock run has and a queue run has no use for: given with --workload queue, they are refused, not ignored. */
const LOCK_ONLY: [keyof CliFlags | string, string][] = [['checkHold', '--check-hold']];

export async function runQueueCommand(flags: CliFlags): Promise<void> {
  const o = queueOptionsOf(flags);
  validateQueueOptions(o);
  if (flags.plan === true) {
    process.stdout.write(JSON.stringify({ options: o, ...planQueueRun(o) }, null, 2) + '\n');
    return;
  }
  ensureWritableDir(o.resultsDir, '`--results`');
  const log = (l: string): void => void process.stderr.write(oneLine(l) + '\n');
  const { runQueueTest } = await import('../run/run-queue-test.js');
  const { results, runDir, replay, report } = await runInFreeSlot((slot) => runQueueTest(o, { log, busyTimeoutMs: 0, slot }), flags.busyTimeoutMs, log);
  for (const line of formatQueueResults(results)) process.stdout.write(oneLine(line) + '\n');
  process.stdout.write(`run: ${oneLine(runDir)}\n${report ? `report: ${oneLine(report)}\n` : ''}replay: ${oneLine(replay)}\n`);
  process.exitCode = outcomeExitCode(results);
}

/** A lock run's flags that only a queue run takes: refused with the flag that makes them mean something. */
export function refuseQueueOnly(flags: { backend: string; resource: string; nemesis?: unknown }): void {
  // An aimed fault (`client-pause@holder-read`) is judged by its fault.
  const queueOnly = ((flags.nemesis as string[] | undefined) ?? [])
    .map((f) => splitAim(f, '--nemesis').fault)
    .find((f) => !(SCHEDULED_FAULT_KINDS as readonly string[]).includes(f));
  if (queueOnly !== undefined)
    throw new UsageError(
      `Expected a lock run's fault in \`--nemesis\`, got \`${queueOnly}\` (a queue run's)`,
      `\`${queueOnly}\` strikes a job queue's worker or server: add --workload queue, or strike a lock run with ${SCHEDULED_FAULT_KINDS.join(', ')}.`,
    );
  // A server both a lock run and a queue run start (redis, redis-sentinel) is a lock service here.
  if ((QUEUE_SERVERS as readonly string[]).includes(flags.backend) && !(LOCK_BACKENDS as readonly string[]).includes(flags.backend))
    throw new UsageError(
      `Expected a lock service with \`--backend ${flags.backend}\`, got a queue's server`,
      `\`--backend ${flags.backend}\` is a job queue's server: add --workload queue.`,
    );
  if ((QUEUE_MODES as readonly string[]).includes(flags.resource) && flags.resource !== 'none')
    throw new UsageError(
      `Expected a lock run's resource mode, got \`--resource ${flags.resource}\` (a queue's)`,
      `\`${flags.resource}\` judges a job's effect: add --workload queue, or run a lock mode (fence, fence-claim, cas-unique, ...).`,
    );
}

export function queueOptionsOf(flags: CliFlags): QueueRunOptions {
  const shared = sharedRunOptions(flags);
  for (const [key, flag] of LOCK_ONLY)
    if (flags[key] !== undefined && flags[key] !== false)
      throw new UsageError(`Expected no \`${flag}\` with \`--workload queue\``, `${flag} shapes a lock run; a queue run's faults are its --nemesis windows.`);
  if (shared.client === undefined)
    throw new UsageError(
      'Expected `--client` with `--workload queue`: the queue library to run',
      'Name one (`--client bullmq`: docs/queues.md lists them) or give the command line of a program speaking the queue protocol.',
    );
  return {
    backend: flags.backend as QueueServer,
    ...(flags['redisPersistence'] !== undefined ? { redisPersistence: flags['redisPersistence'] as RedisPersistence } : {}),
    client: shared.client,
    resource: flags.resource as QueueMode,
    nemesis: flags.nemesis as QueueFault[],
    timeLimitS: shared.timeLimitS,
    workers: shared.clients,
    rate: shared.rate,
    jobMs: shared.holdMs,
    lockMs: shared.ttlMs,
    intervalMs: shared.intervalMs,
    durationMs: shared.durationMs,
    recoverMs: shared.recoverMs,
    callTimeoutMs: shared.callTimeoutMs,
    seed: flags.seed,
    resultsDir: flags.results,
    // A script's windows in place of the drawn ones (a hunt's try, a shrunk plan).
    ...(typeof flags.script === 'string' ? { windows: parseQueueScript(flags.script, shared.timeLimitS) } : {}),
  };
}
