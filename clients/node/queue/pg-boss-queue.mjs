/**
 * pg-boss (npm `pg-boss` 10.x, on PostgreSQL) as a fencecheck queue program (docs/queues.md). The producer
 * `send`s each job with `expireInSeconds` at the run's lock (--ttl-ms, at least pg-boss's 1 s); a job active
 * longer than that is failed by pg-boss's maintenance ("job failed by timeout in active state") and, within its
 * retryLimit (pg-boss's default, 2), handed out again. The worker uses pg-boss's own fetch and complete (its
 * manual-processing API) so that it can say whether the completion was accepted: `complete` updates only a job
 * still active, and answers how many it updated (0: refused, reported as missing-lock). The attempt number is
 * `retryCount + 1` (`includeMetadata`). Every pg-boss instance supervises (maintenance every second), as pg-boss
 * does by default, only more often so a run of seconds sees it.
 */
import PgBoss from 'pg-boss';
import { readFileSync } from 'node:fs';
import { log, readConfig, serve, sleep, workerEvents } from '../fencecheck-queue-protocol.mjs';

const config = readConfig();
const version = JSON.parse(readFileSync(new URL('../node_modules/pg-boss/package.json', import.meta.url), 'utf8')).version;
const library = `pg-boss ${version}`;
const boss = new PgBoss({
  host: config.queue.host,
  port: config.queue.port,
  user: 'postgres',
  database: 'postgres',
  maintenanceIntervalSeconds: 1,
  schedule: false,
});
boss.on('error', (err) => log(`pg-boss: ${err.message}`));
await boss.start();
// Every program makes sure the queue exists (pg-boss 10 needs it before send or fetch); a second create is refused, harmlessly.
await boss.createQueue(config.queueName).catch((err) => log(`createQueue: ${err.message}`));
const expireInSeconds = Math.max(1, Math.round(config.lockMs / 1000));

if (config.role === 'producer') {
  await serve(config, {
    library,
    attempt: 'retryCount + 1',
    enqueue: async (job) => {
      const id = await boss.send(config.queueName, { job }, { expireInSeconds });
      if (id === null) throw new Error('pg-boss did not create the job (send returned null)');
    },
    close: () => boss.stop({ graceful: false, wait: true }),
  });
} else {
  const events = workerEvents(config);
  let stopping = false;
  let loop = Promise.resolve();
  const takeJobs = async () => {
    while (!stopping) {
      let jobs;
      try {
        jobs = await boss.fetch(config.queueName, { batchSize: 1, includeMetadata: true });
      } catch (err) {
        log(`fetch: ${err.message}`);
        jobs = [];
      }
      const job = jobs[0];
      if (!job) {
        await sleep(200);
        continue;
      }
      const attempt = job.retryCount + 1;
      await events.handle(job.data.job, attempt);
      try {
        const r = await boss.complete(config.queueName, job.id);
        if (r.affected === 1) events.completed(job.data.job, attempt);
        else events.refused(job.data.job, attempt, 'missing-lock');
      } catch (err) {
        events.unknown(job.data.job, attempt, `complete failed: ${err.message}`.slice(0, 200));
      }
    }
  };
  await serve(config, {
    library,
    attempt: 'retryCount + 1',
    // Jobs are fetched only after the ready line.
    start: () => void (loop = takeJobs()),
    close: async () => {
      stopping = true;
      await Promise.race([loop, sleep(2000)]);
      await events.close();
      await boss.stop({ graceful: false, wait: true });
    },
  });
}
