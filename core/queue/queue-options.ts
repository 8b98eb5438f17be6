/**
 * The options of a queue run (`fencecheck run --workload queue`), checked
 * before anything starts (pure): the queue's server, the library, the
 * resource mode, the faults that reach a queue's danger. Every refusal is a
 * UsageError (exit 254) that says what would work. The lock run's shared
 * flags keep their meaning, read for a queue: `--clients` workers,
 * `--rate` jobs a second per worker, `--hold-ms` each job's duration, `--ttl-ms`
 * the library's lock (or visibility timeout), `--duration-ms` a stall.
 */
import { UsageError } from '../errors.js';
import type { RedisPersistence } from '../plan/redis-persistence.js';
import { shellQuote } from '../shell-quote.js';
import { NEMESIS_OF_WINDOW, queueScriptText, type QueueWindow } from './queue-window.js';
import { modeNotServed, QUEUE_LIBRARIES, QUEUE_MODES, queueLibrary, type QueueLibrary, type QueueMode, type QueueServer } from './queue-libraries.js';

export const QUEUE_SERVERS: readonly QueueServer[] = ['redis', 'postgres', 'redis-sentinel'];
/**
 * The faults a queue run strikes. client-pause, client-kill and client-partition strike the first worker to
 * take a job once their window opens: SIGSTOP then SIGCONT (a stall past its lock), kill -9 and a start again
 * after the window (as a supervisor would), or its link to the queue's server cut for the window (the worker
 * runs on, its lock unrenewed). effect-kill kills the first worker whose job's effect landed, before it
 * completes the job (the effect done, the acknowledgement lost), and starts it again after the window.
 * server-kill kills the queue's server (kill -9) when its window opens and starts it again after the window:
 * what it kept depends on its persistence (--redis-persistence). client-delay delays the first taker's link to
 * the queue's server by the library's lock, each way, for the window (every worker talks to it through a delay
 * proxy on its own host in such a run).
 */
export const QUEUE_FAULTS = ['client-pause', 'client-kill', 'client-partition', 'effect-kill', 'server-kill', 'client-delay'] as const;
export type QueueFault = (typeof QUEUE_FAULTS)[number];

/** A bound on the plan's size (every job is held in memory and in plan.json). */
export const MAX_JOBS = 200_000;

export interface QueueRunOptions {
  backend: QueueServer;
  /** A known queue library's name (QUEUE_LIBRARIES), or the command line of a program speaking the queue protocol. */
  client: string;
  resource: QueueMode;
  nemesis: QueueFault[];
  timeLimitS: number;
  /** Worker processes, each in its own host. */
  workers: number;
  /** Jobs enqueued a second per worker, on average. */
  rate: number;
  /** How long each job's handler holds before its effect, ms. */
  jobMs: number;
  /** The library's lock duration or visibility timeout, ms. */
  lockMs: number;
  /** Quiet time before each stall, ms. */
  intervalMs: number;
  /** How long a stall lasts, or a killed worker stays down, ms. */
  durationMs: number;
  /** After the faults heal, the longest wait for the queue to drain before the final read, ms. */
  recoverMs: number;
  callTimeoutMs: number;
  seed: number;
  resultsDir: string;
  name?: string;
  /** The queue's Redis: what it keeps across a server-kill (none: nothing; the default). */
  redisPersistence?: RedisPersistence;
  /**
   * The fault windows as given (`--script`: a hunt's try, a shrunk plan), instead of drawn from the seed and the
   * interval; each window's fault must be among `nemesis`.
   */
  windows?: QueueWindow[];
}

/** The library a --client names, or undefined for a command line (its program announces itself). */
export function libraryOf(o: Pick<QueueRunOptions, 'client'>): QueueLibrary | undefined {
  return queueLibrary(o.client);
}

export function validateQueueOptions(o: QueueRunOptions): void {
  if (!(QUEUE_SERVERS as readonly string[]).includes(o.backend))
    throw new UsageError(
      `Expected \`--backend\` to be a queue's server (${QUEUE_SERVERS.join(', ')}) with \`--workload queue\`, got \`${o.backend}\``,
      `A queue run starts the queue's own server: redis for ${namesOn('redis')}, postgres for ${namesOn('postgres') || 'the PostgreSQL queues'}, redis-sentinel (a master, two replicas, three Sentinels) for ${namesOn('redis-sentinel')}.`,
    );
  if (!(QUEUE_MODES as readonly string[]).includes(o.resource))
    throw new UsageError(
      `Expected \`--resource\` to be a queue mode (${QUEUE_MODES.join(', ')}) with \`--workload queue\`, got \`${o.resource}\``,
      "A job's effect is judged per job: none (every effect accepted), idempotent (the job id as a key), attempt-fence (the attempt number as a per-job token). docs/queues.md",
    );
  const lib = libraryOf(o);
  if (lib === undefined && !/[\s/]/.test(o.client))
    throw new UsageError(
      `Expected \`--client\` to name a queue library (${QUEUE_LIBRARIES.map((l) => l.name).join(', ')}) or a command line, got \`${o.client}\``,
      'A program of your own speaks the queue protocol (docs/queues.md); give its command line, e.g. `--client "node my-worker.mjs"`.',
    );
  if (lib !== undefined && o.backend === 'redis-sentinel' && lib.server === 'redis' && lib.sentinel !== true)
    throw new UsageError(
      `Cannot run \`--client ${lib.name}\` with \`--backend redis-sentinel\`: its program connects to one Redis, not through Sentinels`,
      `Run it with --backend redis; behind Sentinels: ${QUEUE_LIBRARIES.filter((l) => l.sentinel === true)
        .map((l) => l.name)
        .join(', ')}.`,
    );
  if (lib !== undefined && lib.server !== o.backend && !(o.backend === 'redis-sentinel' && lib.server === 'redis'))
    throw new UsageError(
      `Expected \`--backend ${lib.server}\` for \`--client ${lib.name}\` (${lib.library} runs on ${lib.server}), got \`--backend ${o.backend}\``,
      `Run it as \`--backend ${lib.server} --client ${lib.name}\`.`,
    );
  const notServed = lib === undefined ? undefined : modeNotServed(lib, o.resource);
  if (notServed !== undefined)
    throw new UsageError(
      `Cannot run \`--resource ${o.resource}\` with \`--client ${o.client}\`: ${notServed}`,
      'Run --resource idempotent: a job id is all it needs.',
    );
  const jobs = o.rate * o.workers * o.timeLimitS;
  if (jobs > MAX_JOBS)
    throw new UsageError(
      `Expected at most ${MAX_JOBS.toLocaleString('en')} jobs in a queue run (--rate × --clients × --time-limit), got about ${Math.round(jobs).toLocaleString('en')}`,
      'Lower --rate or --time-limit: the verdict needs jobs that meet a stall, not more jobs.',
    );
  if (o.redisPersistence !== undefined && o.redisPersistence !== 'none' && o.backend !== 'redis')
    throw new UsageError(
      `Expected \`--redis-persistence\` only with \`--backend redis\`, got \`--backend ${o.backend}\``,
      o.backend === 'postgres'
        ? "A queue's PostgreSQL keeps what it committed: drop the flag."
        : "The Sentinels' Redis servers run as the lock backend configures them: drop the flag.",
    );
  if (o.backend === 'redis-sentinel' && o.nemesis.includes('client-delay'))
    throw new UsageError(
      'Cannot run `--nemesis client-delay` with `--backend redis-sentinel`: the workers follow whichever master the Sentinels name, so no delay proxy can sit on their link',
      'Strike the master with server-kill (a failover), or cut a worker off with client-partition.',
    );
  for (const f of o.nemesis)
    if (!(QUEUE_FAULTS as readonly string[]).includes(f))
      throw new UsageError(
        `Expected \`--nemesis\` to hold faults a queue run strikes (${QUEUE_FAULTS.join(', ')}), got \`${f}\``,
        'client-pause stalls a worker holding a job past its lock (SIGSTOP, then SIGCONT); client-kill kills it mid-job (kill -9) and restarts it; client-partition cuts it off from the queue server; effect-kill kills it between its effect and its completion; server-kill kills the queue server and restarts it; client-delay slows its link to the queue server.',
      );
  for (const [i, w] of (o.windows ?? []).entries())
    if (!o.nemesis.includes(NEMESIS_OF_WINDOW[w.fault]))
      throw new UsageError(
        `Expected \`--nemesis\` to include ${NEMESIS_OF_WINDOW[w.fault]} for \`--script\` window ${i + 1} (${w.fault}), got \`${o.nemesis.join(',') || 'none'}\``,
        'Name every fault the script strikes in --nemesis, e.g. --nemesis client-pause,client-kill.',
      );
}

function namesOn(server: QueueServer): string {
  return QUEUE_LIBRARIES.filter((l) => l.server === server || (server === 'redis-sentinel' && l.sentinel === true))
    .map((l) => l.name)
    .join(', ');
}

/** The command that runs this queue run again. */
export function queueReplayCommand(o: QueueRunOptions): string {
  return `fencecheck ${shellQuote(['run', ...queueRunFlags(o).flat()])}`;
}

/** The run command's flags that give these options, in the replay command's order, each with its value. */
export function queueRunFlags(o: QueueRunOptions): [flag: string, value: string][] {
  const flags: [string, string][] = [
    ['--workload', 'queue'],
    ['--backend', o.backend],
    ['--client', o.client],
    ['--resource', o.resource],
  ];
  if (o.nemesis.length > 0) flags.push(['--nemesis', o.nemesis.join(',')]);
  flags.push(
    ['--time-limit', String(o.timeLimitS)],
    ['--clients', String(o.workers)],
    ['--rate', String(o.rate)],
    ['--hold-ms', String(o.jobMs)],
    ['--ttl-ms', String(o.lockMs)],
    ['--interval-ms', String(o.intervalMs)],
    ['--duration-ms', String(o.durationMs)],
    ['--recover-ms', String(o.recoverMs)],
    ['--call-timeout-ms', String(o.callTimeoutMs)],
    ['--seed', String(o.seed)],
  );
  if (o.redisPersistence !== undefined && o.redisPersistence !== 'none') flags.push(['--redis-persistence', o.redisPersistence]);
  if (o.windows !== undefined) flags.push(['--script', queueScriptText(o.windows)]);
  if (o.resultsDir !== 'results') flags.push(['--results', o.resultsDir]);
  return flags;
}
