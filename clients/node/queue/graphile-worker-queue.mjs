/**
 * graphile-worker (npm `graphile-worker` 0.17.x, on PostgreSQL; 0.18 needs Node 22) as a fencecheck queue
 * program (docs/queues.md): the producer adds jobs with `WorkerUtils.addJob`, the worker is `run()` with one
 * task and concurrency 1, as its docs show it. A job is locked to its worker (`locked_by`, `locked_at`) when
 * taken; graphile-worker hands a locked job to another worker only once the lock is 4 hours old (fixed in
 * its SQL, not an option), so a stall of seconds does not make it run a job twice: `--ttl-ms` has nothing
 * to set. The attempt number is `job.attempts` (counted up when a worker takes the job). A completion
 * deletes the job by its id and is never refused: `job:complete` is reported as accepted.
 */
import { Logger, makeWorkerUtils, run } from 'graphile-worker';
import { readFileSync } from 'node:fs';
import { log, readConfig, serve, workerEvents } from '../fencecheck-queue-protocol.mjs';

const config = readConfig();
const version = JSON.parse(readFileSync(new URL('../node_modules/graphile-worker/package.json', import.meta.url), 'utf8')).version;
const library = `graphile-worker ${version}`;
const connectionString = `postgres://postgres@${config.queue.host}:${config.queue.port}/postgres`;
const ATTEMPT = 'job.attempts';
// graphile-worker's logger prints every job; keep its warnings and errors only (stderr is the run's log).
const logFactory = () => (level, message) => (level === 'error' || level === 'warning' ? log(`graphile-worker ${level}: ${message}`) : undefined);
const logger = new Logger(logFactory);

if (config.role === 'producer') {
  const utils = await makeWorkerUtils({ connectionString, logger });
  await utils.migrate();
  await serve(config, {
    library,
    attempt: ATTEMPT,
    enqueue: async (job) => void (await utils.addJob('job', { job })),
    close: () => utils.release(),
  });
} else {
  const events = workerEvents(config);
  let runner;
  await serve(config, {
    library,
    attempt: ATTEMPT,
    // graphile-worker's run() takes jobs at once: started after the ready line.
    start: async () => {
      runner = await run({
        connectionString,
        concurrency: 1,
        pollInterval: 200,
        noHandleSignals: true,
        logger,
        taskList: {
          job: async (payload, helpers) => {
            await events.handle(payload.job, helpers.job.attempts);
          },
        },
      });
      runner.events.on('job:success', ({ job }) => events.completed(job.payload.job, job.attempts));
      // The task never throws (the effect's failures are its events), so an error is graphile-worker's own.
      runner.events.on('job:error', ({ job, error }) => log(`job ${job.payload?.job}: ${error?.message ?? error}`));
    },
    close: async () => (await runner?.stop(), await events.close()),
  });
}
