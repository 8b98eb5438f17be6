/**
 * Bee-Queue (npm `bee-queue` 2.x, on Redis) as a fencecheck queue program (docs/queues.md): the producer
 * saves jobs with `createJob(...).setId(...).save()`, the worker is `Queue.process` with concurrency 1. A
 * worker tells Redis every `stallInterval / 2` that it still works on its job; `checkStalledJobs`, which its
 * docs leave to the user to schedule, moves a job whose worker went silent for a `stallInterval` back to
 * waiting, and another worker runs it again. Every worker schedules the check every `stallInterval` (its
 * docs' advice: the interval the same as stallInterval); `stallInterval` is the run's lock (--ttl-ms).
 * Bee-Queue keeps no attempt number of a job (its `retries` counts down failures only and a stalled re-run
 * does not touch it), so it announces none and cannot serve attempt-fence; and it never refuses a
 * completion: the stalled worker's finish is accepted like any other.
 */
import BeeQueue from 'bee-queue';
import { readFileSync } from 'node:fs';
import { log, readConfig, serve, workerEvents } from '../fencecheck-queue-protocol.mjs';

const config = readConfig();
const version = JSON.parse(readFileSync(new URL('../node_modules/bee-queue/package.json', import.meta.url), 'utf8')).version;
const library = `bee-queue ${version}`;
const stallInterval = config.lockMs ?? 5000;
const isWorker = config.role !== 'producer';
const queue = new BeeQueue(config.queueName, {
  redis: { host: config.queue.host, port: config.queue.port },
  isWorker,
  getEvents: false,
  stallInterval,
  removeOnSuccess: true,
});
queue.on('error', (err) => log(`queue: ${err.message}`));
await queue.ready();

if (!isWorker) {
  await serve(config, {
    library,
    attempt: null,
    enqueue: async (job) => void (await queue.createJob({ job }).setId(`job-${job}`).save()),
    close: () => queue.close(3000),
  });
} else {
  const events = workerEvents(config);
  queue.on('succeeded', (job) => events.completed(job.data.job, 0));
  queue.on('failed', (job, err) => events.refused(job.data.job, 0, String(err?.message ?? err).slice(0, 200)));
  queue.checkStalledJobs(stallInterval, (err) => err && log(`checkStalledJobs: ${err.message}`));
  await serve(config, {
    library,
    attempt: null,
    start: () =>
      void queue.process(1, async (job) => {
        await events.handle(job.data.job, 0);
        return 'done';
      }),
    close: async () => (await queue.close(3000), await events.close()),
  });
}
