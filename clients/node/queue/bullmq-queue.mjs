/**
 * BullMQ (npm `bullmq`, on Redis) as a fencecheck queue program (docs/queues.md): the producer adds
 * jobs with `Queue.add`, the worker is a `Worker` with concurrency 1 as BullMQ's docs show it. Its lock
 * on an active job lasts `lockDuration` and is renewed every half of it; a worker that does not renew in
 * time (its event loop stalled) has the job moved back by another worker's stalled check and run again.
 * The attempt number is `job.attemptsStarted` (each move to active counts, a stalled re-run included).
 */
import { Queue, Worker } from 'bullmq';
import { readFileSync } from 'node:fs';
import { log, readConfig, readOnlyAfterFailover, serve, workerEvents } from '../fencecheck-queue-protocol.mjs';

const config = readConfig();
const version = JSON.parse(readFileSync(new URL('../node_modules/bullmq/package.json', import.meta.url), 'utf8')).version;
// BullMQ's workers need maxRetriesPerRequest null (its docs): a blocking call must not give up. Behind Sentinels
// (--backend redis-sentinel) ioredis asks them for the master and follows a failover (BullMQ's docs' connection).
const server = config.queue.sentinels
  ? { sentinels: config.queue.sentinels, name: config.queue.name, reconnectOnError: readOnlyAfterFailover }
  : { host: config.queue.host, port: config.queue.port };
const connection = { ...server, maxRetriesPerRequest: null };
const library = `bullmq ${version}`;

if (config.role === 'producer') {
  const queue = new Queue(config.queueName, { connection });
  queue.on('error', (err) => log(`queue: ${err.message}`));
  await serve(config, {
    library,
    attempt: 'attemptsStarted',
    // The job's own id is fencecheck's: a second add of one id would be a no-op, not a second job.
    // BullMQ refuses an integer-like custom id ("Custom Id cannot be integers"): `job-J`.
    enqueue: async (job) => void (await queue.add('job', { job }, { jobId: `job-${job}`, removeOnComplete: true, removeOnFail: true })),
    close: () => queue.close(),
  });
} else {
  const events = workerEvents(config);
  const attempts = new Map();
  const worker = new Worker(
    config.queueName,
    async (job) => {
      attempts.set(job.id, { job: job.data.job, attempt: job.attemptsStarted });
      await events.handle(job.data.job, job.attemptsStarted);
      return 'done';
    },
    {
      connection,
      concurrency: 1,
      // Started by serve after the ready line (a job taken before it breaks the protocol).
      autorun: false,
      ...(config.lockMs !== undefined ? { lockDuration: config.lockMs, stalledInterval: config.lockMs } : {}),
    },
  );
  worker.on('completed', (job) => events.completed(job.data.job, job.attemptsStarted));
  worker.on('failed', (job, err) => job && events.refused(job.data.job, job.attemptsStarted, err.message.slice(0, 200)));
  worker.on('error', (err) => {
    // "Missing lock for job 17. moveToFinished": the queue refused this worker's completion.
    // BullMQ says "Missing key" when the job was already completed and removed by the worker that re-ran it.
    const m = /Missing (?:lock|key) for job (\S+?)\.? /.exec(err.message + ' ');
    const d = m ? attempts.get(m[1]) : undefined;
    if (d) events.refused(d.job, d.attempt, 'missing-lock');
    else log(`worker: ${err.message}`);
  });
  await worker.waitUntilReady();
  await serve(config, {
    library,
    attempt: 'attemptsStarted',
    start: () => void worker.run().catch((err) => log(`worker: ${err.message}`)),
    close: async () => (await worker.close(true), await events.close()),
  });
}
