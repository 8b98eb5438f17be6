/**
 * The queue workload's protected resource on PostgreSQL (pure SQL text): a
 * done record per accepted effect (job, attempt, worker) and the jobs'
 * counter, incremented in the same statement. Each resource mode is ONE
 * statement the runner hands every queue program in its config ($1 job,
 * $2 attempt, $3 worker; one row back, `accepted`), so no library's program
 * implements a mode and all are judged on the same effect:
 *
 *   none           every effect accepted;
 *   idempotent     the job's id as an idempotency key: the first insert of
 *                  the key wins, the record and the increment only with it;
 *   attempt-fence  the job's attempt number as a per-job fencing token: an
 *                  attempt lower than one already accepted is refused (an
 *                  equal or higher one lands, so a later re-run still does).
 *
 * Data-modifying CTEs run in one statement and one transaction: the record
 * and the increment land together or not at all.
 */
import type { QueueMode } from './queue-libraries.js';

export const QUEUE_TABLES = { done: 'fc_queue_done', counter: 'fc_queue_counter', keys: 'fc_queue_keys', fence: 'fc_queue_fence' } as const;
const T = QUEUE_TABLES;

/** Run before the workers start: empty tables, the counter at 0. */
export const PREPARE_QUEUE_RESOURCE = [
  `DROP TABLE IF EXISTS ${T.done}, ${T.counter}, ${T.keys}, ${T.fence}`,
  `CREATE TABLE ${T.done} (seq bigserial PRIMARY KEY, job bigint NOT NULL, attempt integer NOT NULL, worker text NOT NULL)`,
  `CREATE TABLE ${T.counter} (id integer PRIMARY KEY, n bigint NOT NULL)`,
  `INSERT INTO ${T.counter} VALUES (1, 0)`,
  `CREATE TABLE ${T.keys} (job bigint PRIMARY KEY)`,
  `CREATE TABLE ${T.fence} (job bigint PRIMARY KEY, attempt integer NOT NULL)`,
];

const increment = (rows: string): string => `c AS (UPDATE ${T.counter} SET n = n + (SELECT count(*) FROM ${rows}) WHERE id = 1 RETURNING 1)`;

export const EFFECT_SQL: Record<QueueMode, string> = {
  none:
    `WITH d AS (INSERT INTO ${T.done} (job, attempt, worker) VALUES ($1::bigint, $2::integer, $3::text) RETURNING 1), ` +
    `${increment('d')} SELECT true AS accepted FROM c`,
  idempotent:
    `WITH k AS (INSERT INTO ${T.keys} (job) VALUES ($1::bigint) ON CONFLICT (job) DO NOTHING RETURNING job), ` +
    `d AS (INSERT INTO ${T.done} (job, attempt, worker) SELECT job, $2::integer, $3::text FROM k RETURNING 1), ` +
    `${increment('d')} SELECT EXISTS (SELECT 1 FROM k) AS accepted FROM c`,
  'attempt-fence':
    `WITH f AS (INSERT INTO ${T.fence} AS f (job, attempt) VALUES ($1::bigint, $2::integer) ` +
    `ON CONFLICT (job) DO UPDATE SET attempt = EXCLUDED.attempt WHERE f.attempt <= EXCLUDED.attempt RETURNING f.job), ` +
    `d AS (INSERT INTO ${T.done} (job, attempt, worker) SELECT job, $2::integer, $3::text FROM f RETURNING 1), ` +
    `${increment('d')} SELECT EXISTS (SELECT 1 FROM f) AS accepted FROM c`,
};

/** The final read: every done record in the order they landed, and the counter. */
export const FINAL_READ_SQL = {
  done: `SELECT job, attempt, worker FROM ${T.done} ORDER BY seq`,
  counter: `SELECT n FROM ${T.counter} WHERE id = 1`,
};
