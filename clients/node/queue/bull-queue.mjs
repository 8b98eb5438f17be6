/**
 * Bull (npm `bull` 4.x, on Redis; BullMQ's predecessor, still widely run) as a fencecheck queue program
 * (docs/queues.md): the producer adds jobs with `Queue.add`, the worker is `Queue.process` with concurrency 1
 * as Bull's docs show it. Its lock on an active job lasts `lockDuration` and is renewed every half of it; a
 * worker that does not renew in time has the job moved back by another worker's stalled check (up to
 * `maxStalledCount`, 1 by default) and run again.
 *
 * The attempt number. What Bull's Job exposes, `attemptsMade + 1`, counts failed attempts only: both runs of a
 * stalled job carry the same number, so it is no delivery count and no fence (client-check's attempts check
 * fails it; run with `--attempts-made`, the `bull-attempts-made` entry, to see that). Bull does count a stalled
 * re-run, in the job's hash (`stalledCounter`, raised by moveStalledJobsToWait before the job is handed out
 * again) but not on its Job. The hash as it was when the job was taken is in hand all the same: Bull's
 * moveToActive script answers with HGETALL in the same script that makes the job active, and Job.fromJSON
 * keeps the fields it knows. So the worker keeps stalledCounter too (a wrapper around Job.fromJSON), and
 * `attemptsMade + stalledCounter + 1` rises with every delivery, failures and stalls alike. Reading the hash
 * again after the take would race a stall (the worker stopped between the take and the read reads the
 * re-run's count: both runs one number; measured once in the integration test).
 */
import Queue from 'bull';
import Job from 'bull/lib/job.js';
import { readFileSync } from 'node:fs';
import { log, readConfig, readOnlyAfterFailover, serve, workerEvents } from '../fencecheck-queue-protocol.mjs';

const config = readConfig();
const version = JSON.parse(readFileSync(new URL('../node_modules/bull/package.json', import.meta.url), 'utf8')).version;
const library = `bull ${version}`;
const ATTEMPTS_MADE_ONLY = process.argv.includes('--attempts-made');
const ATTEMPT = ATTEMPTS_MADE_ONLY ? 'attemptsMade + 1' : 'attemptsMade + stalledCounter + 1';
const settings = config.lockMs !== undefined ? { lockDuration: config.lockMs, stalledInterval: config.lockMs } : {};
// The job hash's stalledCounter as moveToActive read it, beside each Job Bull builds from that reply.
const STALLED = new WeakMap();
const fromJSON = Job.fromJSON;
Job.fromJSON = function (queue, json, jobId) {
  const job = fromJSON.call(this, queue, json, jobId);
  STALLED.set(job, Number.parseInt(json.stalledCounter ?? '0', 10) || 0);
  return job;
};
// Behind Sentinels (--backend redis-sentinel) Bull's ioredis asks them for the master and follows a failover.
const redis = config.queue.sentinels
  ? { sentinels: config.queue.sentinels, name: config.queue.name, reconnectOnError: readOnlyAfterFailover }
  : { host: config.queue.host, port: config.queue.port };
const queue = new Queue(config.queueName, { redis, settings });
// Bull's refusals of a finish whose lock had passed (scripts.finishedErrors): the lock gone ("Missing lock"),
// the job gone (completed and removed by the re-run: "Missing key"), the lock another worker's ("Lock mismatch").
const MISSING_LOCK = /(?:Missing (?:lock|key) for job (\S+?) |Lock mismatch for job (\S+?)\. )/;

if (config.role === 'producer') {
  queue.on('error', (err) => log(`queue: ${err.message}`));
  await queue.isReady();
  await serve(config, {
    library,
    attempt: ATTEMPT,
    // fencecheck's job number as the job's id: a second add of one id would be a no-op, not a second job.
    enqueue: async (job) => void (await queue.add({ job }, { jobId: `job-${job}`, removeOnComplete: true, removeOnFail: true })),
    close: () => queue.close(),
  });
} else {
  const events = workerEvents(config);
  const attempts = new Map();
  // The attempt each job was taken with, by Bull's job id: the completion and refusal events name the
  // delivery they belong to, not whatever the hash says by then.
  const attemptOf = (job) => attempts.get(String(job.id))?.attempt ?? job.attemptsMade + 1;
  const deliveryOf = (job) => job.attemptsMade + (ATTEMPTS_MADE_ONLY ? 0 : (STALLED.get(job) ?? 0)) + 1;
  queue.on('completed', (job) => events.completed(job.data.job, attemptOf(job)));
  // A completion whose lock had passed is retried by Bull as a failure, refused in turn: 'error' with "Missing lock".
  queue.on('failed', (job, err) =>
    events.refused(job.data.job, attemptOf(job), MISSING_LOCK.test(err.message + ' ') ? 'missing-lock' : err.message.slice(0, 200)),
  );
  queue.on('error', (err) => {
    const m = MISSING_LOCK.exec(err.message + ' ');
    const d = m ? attempts.get(m[1] ?? m[2]) : undefined;
    if (d) events.refused(d.job, d.attempt, 'missing-lock');
    else log(`worker: ${err.message}`);
  });
  await queue.isReady();
  await serve(config, {
    library,
    attempt: ATTEMPT,
    start: () =>
      void queue
        .process(1, async (job) => {
          const attempt = deliveryOf(job);
          attempts.set(String(job.id), { job: job.data.job, attempt });
          await events.handle(job.data.job, attempt);
          return 'done';
        })
        .catch((err) => log(`process: ${err.message}`)),
    close: async () => (await queue.close(true), await events.close()),
  });
}
