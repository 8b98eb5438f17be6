/**
 * Bull (npm `bull` 4.x, on Redis; BullMQ's predecessor, still widely run) as a fencecheck queue program
 * (docs/queues.md): the producer adds jobs with `Queue.add`, the worker is `Queue.process` with concurrency 1
 * as Bull's docs show it. Its lock on an active job lasts `lockDuration` and is renewed every half of it; a
 * worker that does not renew in time has the job moved back by another worker's stalled check (up to
 * `maxStalledCount`, 1 by default) and run again. The attempt number is what Bull exposes, `attemptsMade + 1`:
 * it counts failed attempts only, not a stalled re-run (Bull keeps that count, `stalledCounter`, in the job's
 * hash but not on its Job), so both runs of a stalled job carry the same number.
 */
import Queue from 'bull';
import { readFileSync } from 'node:fs';
import { log, readConfig, serve, workerEvents } from '../fencecheck-queue-protocol.mjs';

const config = readConfig();
const version = JSON.parse(readFileSync(new URL('../node_modules/bull/package.json', import.meta.url), 'utf8')).version;
const library = `bull ${version}`;
const ATTEMPT = 'attemptsMade + 1';
const settings = config.lockMs !== undefined ? { lockDuration: config.lockMs, stalledInterval: config.lockMs } : {};
const queue = new Queue(config.queueName, { redis: { host: config.queue.host, port: config.queue.port }, settings });
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
  const attemptOf = (job) => job.attemptsMade + 1;
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
  queue.process(1, async (job) => {
    attempts.set(String(job.id), { job: job.data.job, attempt: attemptOf(job) });
    await events.handle(job.data.job, attemptOf(job));
    return 'done';
  });
  await serve(config, { library, attempt: ATTEMPT, close: async () => (await queue.close(true), await events.close()) });
}
