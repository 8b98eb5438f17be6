/**
 * The job queues fencecheck knows by name (docs/queues.md): each a program of
 * clients/ speaking the queue protocol (clients/node/fencecheck-queue-protocol.mjs),
 * the server it needs (`--backend`), and the attempt number its worker exposes,
 * which decides whether it can serve the attempt-fence mode. Pure data.
 */
/** The server a queue run starts for its queue: a library's own, or Redis behind Sentinels for a library that follows them. */
export type QueueServer = 'redis' | 'postgres' | 'redis-sentinel';

export const QUEUE_MODES = ['none', 'idempotent', 'attempt-fence'] as const;
export type QueueMode = (typeof QUEUE_MODES)[number];

export interface QueueLibrary {
  name: string;
  /** The package and the version it is pinned to. */
  library: string;
  language: 'node' | 'python';
  server: 'redis' | 'postgres';
  /** Its program connects through Redis Sentinels when given them (`--backend redis-sentinel`), following a failover. */
  sentinel?: true;
  /** Where its worker's attempt number comes from, or why it has none (attempt-fence is then n/a). */
  attempt: { field: string } | { none: string };
  /**
   * When its worker first renews the lock of a job it took, as a share of the lock after the take (the earliest
   * it can come), and how; absent for a library whose lock is not renewed while the job runs (an expiry, a
   * visibility timeout). A stall that opens just before it outlasts the lock though shorter than it.
   */
  renewal?: { share: number; how: string };
  /** What its docs promise about a job whose worker stalls. */
  promise: string;
  /** Its program, relative to the project root (run by the running Node, or Debian's /usr/bin/python3). */
  program: string;
  /** Arguments after the program (one program serving two configurations). */
  args?: readonly string[];
  install: string;
}

const NPM = 'npm run setup -- --node (installs clients/node/package.json)';
const DEBIAN = (pkg: string): string => `npm run setup (Debian's ${pkg}, run by /usr/bin/python3)`;

export const QUEUE_LIBRARIES: readonly QueueLibrary[] = [
  {
    name: 'bullmq',
    library: 'bullmq 6.7.6',
    language: 'node',
    server: 'redis',
    sentinel: true,
    attempt: { field: 'job.attemptsStarted' },
    renewal: {
      share: 1 / 4,
      how: "LockManager's timer ticks every lockRenewTime / 2 (lockDuration / 4) and extends a lock last set more than a tick ago: a job's first renewal comes 1/4 to 1/2 of the lock after its take",
    },
    promise: 'at least once: a job whose lock is not renewed within lockDuration is moved back as stalled and run again',
    program: 'clients/node/queue/bullmq-queue.mjs',
    install: NPM,
  },
  {
    name: 'pg-boss',
    library: 'pg-boss 10.4.2',
    language: 'node',
    server: 'postgres',
    attempt: { field: 'job.retryCount + 1' },
    promise: 'a job active past its expireInSeconds is failed by the maintenance and retried within its retryLimit',
    program: 'clients/node/queue/pg-boss-queue.mjs',
    install: NPM,
  },
  {
    name: 'bull',
    library: 'bull 4.16.5',
    language: 'node',
    server: 'redis',
    // Bull counts a stalled re-run in the job's hash only (stalledCounter); the worker reads it when it takes the job.
    sentinel: true,
    attempt: { field: 'job.attemptsMade + stalledCounter + 1' },
    renewal: { share: 1 / 2, how: "processJob's lockExtender timer, set as the job starts: every lockRenewTime (lockDuration / 2)" },
    promise: 'a job whose lock is not renewed within lockDuration is moved back as stalled (maxStalledCount times) and run again',
    program: 'clients/node/queue/bull-queue.mjs',
    install: NPM,
  },
  {
    name: 'bull-attempts-made',
    library: 'bull 4.16.5',
    language: 'node',
    server: 'redis',
    // What Bull's Job exposes: failures only, so both runs of a stalled job carry one number (client-check fails it).
    attempt: { field: 'job.attemptsMade + 1' },
    renewal: { share: 1 / 2, how: "processJob's lockExtender timer, set as the job starts: every lockRenewTime (lockDuration / 2)" },
    promise: 'the same worker, its attempt number the one Bull documents (attemptsMade), which counts failed attempts only',
    program: 'clients/node/queue/bull-queue.mjs',
    args: ['--attempts-made'],
    install: NPM,
  },
  {
    name: 'bee-queue',
    library: 'bee-queue 2.0.0',
    language: 'node',
    server: 'redis',
    attempt: { none: 'Bee-Queue keeps no attempt count; its retries count down failures only and a stalled re-run leaves them alone' },
    renewal: { share: 1 / 2, how: "_runJob's preventStalling: the job taken off the stalling set as it starts, then every stallInterval / 2" },
    promise: 'a job whose worker does not report within stallInterval is re-enqueued by checkStalledJobs (which the user schedules) and run again',
    program: 'clients/node/queue/bee-queue-queue.mjs',
    install: NPM,
  },
  {
    name: 'graphile-worker',
    library: 'graphile-worker 0.17.3',
    language: 'node',
    server: 'postgres',
    attempt: { field: 'job.attempts' },
    promise: 'a job is locked to its worker; a lock older than 4 hours (fixed) is taken to be a crashed worker and the job runs again',
    program: 'clients/node/queue/graphile-worker-queue.mjs',
    install: NPM,
  },
  {
    name: 'celery',
    library: 'celery 5.2.6',
    language: 'python',
    server: 'redis',
    sentinel: true,
    // Explicit retries only: a redelivered message keeps the number.
    attempt: { field: 'request.retries + 1' },
    promise: 'the message is acknowledged before the task runs (acks_late off, the default): at most once',
    program: 'clients/python/queue/celery_queue.py',
    install: DEBIAN('python3-celery'),
  },
  {
    name: 'celery-acks-late',
    library: 'celery 5.2.6',
    language: 'python',
    server: 'redis',
    sentinel: true,
    attempt: { field: 'request.retries + 1' },
    promise: 'acks_late: acknowledged after the task returns; on Redis an unacknowledged message is redelivered once its visibility_timeout has passed',
    program: 'clients/python/queue/celery_queue.py',
    args: ['--acks-late'],
    install: DEBIAN('python3-celery'),
  },
  {
    name: 'rq',
    library: 'rq 1.13.0',
    language: 'python',
    server: 'redis',
    sentinel: true,
    attempt: { none: 'RQ keeps no attempt count; its retries_left counts down configured retries only' },
    promise:
      'a job whose started-registry entry expired (job_monitoring_interval + 60 s) is failed in the maintenance (every 10 min), run again only with a Retry',
    program: 'clients/python/queue/rq_queue.py',
    install: DEBIAN('python3-rq'),
  },
];

/**
 * How long after a take a window aimed at the library's first renewal strikes: a tenth early, as the library's
 * timer starts at its own take, a few ms before the worker's take line reaches the runner. Undefined for a
 * library that does not renew.
 */
export function renewalDueAfterTakeMs(lib: Pick<QueueLibrary, 'renewal'> | undefined, lockMs: number): number | undefined {
  return lib?.renewal === undefined ? undefined : Math.round(lockMs * lib.renewal.share * 0.9);
}

export function queueLibrary(name: string): QueueLibrary | undefined {
  return QUEUE_LIBRARIES.find((l) => l.name === name);
}

/** Why a library cannot serve a mode, or undefined when it can. */
export function modeNotServed(lib: Pick<QueueLibrary, 'name' | 'attempt'>, mode: QueueMode): string | undefined {
  if (mode === 'attempt-fence' && 'none' in lib.attempt) return `${lib.name}'s worker exposes no attempt number (${lib.attempt.none})`;
  return undefined;
}
