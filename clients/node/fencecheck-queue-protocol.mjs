/**
 * The fencecheck queue protocol, version 1, in plain Node (docs/queues.md, "The queue protocol").
 *
 * A queue library's program plays one of two roles, named in FC_QUEUE_CONFIG:
 *
 *   producer  answers one JSON request per line on stdin, `{"id": n, "enqueue": J}`, with
 *             `{"id": n, "type": "ok" | "fail" | "info", "error"?: code}` once the library
 *             says the job is (or is not) in the queue;
 *   worker    runs the library's worker as its docs advise; for each job it is handed it
 *             prints events: `take` (the job J and the library's attempt number A),
 *             `effect` invoke then ok / rejected / info (the job's side effect on the
 *             protected resource: the statement the runner sends in the config, so every
 *             library's effect is the same SQL), then `complete` invoke, and ok or
 *             fail (`missing-lock`: the queue refused the completion, the job's lock had
 *             passed on) as the library reports it.
 *
 * Both print one ready line first: `{"ready": true, "protocol": 1, "library": "...",
 * "attempt": "<the field the attempt number comes from>" | null}`. A library that exposes no
 * attempt number announces null and sends attempt 0 (the runner then refuses the
 * attempt-fence mode, as the lock protocol does with a token kind).
 *
 * Like fencecheck-protocol.mjs, it needs only `pg` and is what a user of the library would write.
 */
import { createInterface } from 'node:readline';
import pg from 'pg';

export const QUEUE_PROTOCOL_VERSION = 1;

export function log(line) {
  process.stderr.write(`${new Date().toISOString().slice(11, 23)} ${line}\n`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * ioredis's `reconnectOnError` behind Sentinels: a demoted master answers READONLY until ioredis asks the Sentinels
 * again, and ioredis's advice for a failover is to reconnect on that error and resend the command (returning 2).
 */
export const readOnlyAfterFailover = (err) => (err.message.includes('READONLY') ? 2 : false);

function out(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

export function readConfig() {
  const text = process.env.FC_QUEUE_CONFIG;
  if (!text) {
    process.stderr.write('FC_QUEUE_CONFIG is not set: this program is started by `fencecheck run --workload queue`\n');
    process.exit(2);
  }
  return JSON.parse(text);
}

/** The job's side effect: the runner's statement ($1 job, $2 attempt, $3 worker) on one connection, reopened after a failure. */
class Effect {
  constructor(config) {
    this.config = config;
    this.client = undefined;
  }
  async connection() {
    if (this.client) return this.client;
    const c = new pg.Client({ ...this.config.pg, statement_timeout: this.config.callTimeoutMs, connectionTimeoutMillis: this.config.callTimeoutMs });
    c.on('error', () => undefined);
    await c.connect();
    this.client = c;
    return c;
  }
  /** 'ok' (accepted), 'rejected' (the resource refused it), or 'info' with the error (it may have landed). */
  async apply(job, attempt) {
    let connected = false;
    try {
      const c = await this.connection();
      connected = true;
      const r = await c.query(this.config.effectSql, [job, attempt, this.config.worker]);
      return { phase: r.rows[0]?.accepted === true ? 'ok' : 'rejected' };
    } catch (err) {
      const c = this.client;
      this.client = undefined;
      c?.end().catch(() => undefined);
      // Not connected: the statement was never sent, so it definitely did not happen.
      return { phase: connected ? 'info' : 'fail', error: String(err?.message ?? err).slice(0, 200) };
    }
  }
  async close() {
    await this.client?.end().catch(() => undefined);
  }
}

/**
 * A worker's handler around the library's job: take, hold for the job's duration, the effect, hold
 * for `afterEffectMs` when the runner gives one, then complete's invoke (the library completes the job when the handler returns: report its answer with
 * `completed` / `refused`).
 */
export function workerEvents(config) {
  const effect = new Effect(config);
  return {
    async handle(job, attempt) {
      out({ event: 'take', job, attempt });
      await sleep(config.jobMs);
      out({ event: 'effect', phase: 'invoke', job, attempt });
      const r = await effect.apply(job, attempt);
      out({ event: 'effect', job, attempt, ...r });
      // The gap an effect-kill aims at (the effect landed, the completion not yet sent); 0 unless that fault is on.
      if (config.afterEffectMs > 0) await sleep(config.afterEffectMs);
      out({ event: 'complete', phase: 'invoke', job, attempt });
    },
    completed(job, attempt) {
      out({ event: 'complete', phase: 'ok', job, attempt });
    },
    refused(job, attempt, error) {
      out({ event: 'complete', phase: 'fail', job, attempt, error });
    },
    /** The completion's answer never came (the call failed): it may have been accepted. */
    unknown(job, attempt, error) {
      out({ event: 'complete', phase: 'info', job, attempt, error });
    },
    close: () => effect.close(),
  };
}

/**
 * Print the ready line; a producer then answers enqueue requests until stdin ends, a worker calls `start`
 * to begin taking jobs. A worker must not take one before: the protocol's ready line comes first, and a
 * library whose worker starts on construction (BullMQ's autorun, Bull's and Bee-Queue's `process`) can
 * take a job in the moment before it, which the runner rightly refuses (seen with a worker started again
 * after a kill, when jobs are waiting).
 */
export async function serve(config, { library, attempt, enqueue, close, start }) {
  out({ ready: true, protocol: QUEUE_PROTOCOL_VERSION, library, attempt, role: config.role });
  let ending = false;
  const end = async (code) => {
    if (ending) return;
    ending = true;
    await Promise.race([close().catch((err) => log(`close: ${err?.message ?? err}`)), sleep(3000)]);
    process.exit(code);
  };
  process.on('SIGTERM', () => void end(0));
  if (config.role !== 'producer') {
    // A worker: its events flow from the library; stdin ending is the runner saying stop.
    process.stdin.on('end', () => void end(0));
    process.stdin.resume();
    await start();
    return;
  }
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    const req = JSON.parse(line);
    try {
      await enqueue(req.enqueue);
      out({ id: req.id, type: 'ok' });
    } catch (err) {
      // A producer cannot tell whether a job whose add threw is in the queue: info, unless the library said no.
      out({ id: req.id, type: 'info', error: String(err?.message ?? err).slice(0, 200) });
    }
  }
  await end(0);
}
