/**
 * The queue workload's checker (pure): did the queue run a job twice with
 * effect, lose one, and did the side effect hold?
 *
 * Jepsen's `total-queue` is the model: every job attempted (its enqueue
 * invoked) is followed to what was delivered; a job enqueued ok and never
 * delivered is lost, one delivered though its enqueue failed or never was
 * is unexpected, one whose enqueue was indeterminate and that was delivered
 * is recovered (fine). What a lock question adds, as the `jobs` workload
 * does for a lock-guarded stream: deliveries are the queue's business, the
 * damage is at the resource. So the resource's done records (the final
 * read) decide:
 *
 *   - duplicated: a job with two or more done records (its effect landed
 *     twice: the "at least once" a worker's stalled lock costs);
 *   - lost: a job enqueued ok with no done record (its effect never landed);
 *   - unexpected: a done record of a job never attempted, or whose enqueue
 *     failed (the history contradicts the resource);
 *   - lost increments: the jobs' counter below the number of done records
 *     (two effects read the same count); above it, a phantom;
 *   - wasted: an effect the resource refused (an idempotency key or an
 *     attempt fence caught a second run: work lost, no harm);
 *   - missing lock: a completion the queue refused because the job's lock
 *     had passed on (BullMQ's "Missing lock for job"): a sign, not a verdict;
 *   - redelivered: a job delivered twice or more, the danger itself; a run
 *     without one has not tested the remedy (evidence, not a verdict).
 *
 * Rates are per 1,000 jobs done with Wilson's 95 % interval (rate-interval.ts).
 * Without a final read the done records are unknown: two accepted effects of
 * one job in the history still prove a duplicate, but nothing proves a loss,
 * so the verdict is unknown unless a duplicate shows.
 */
import type { History } from '../../history/op.js';
import { indexesOf } from '../lock/lock-ops.js';
import { perThousand, wilsonInterval } from '../lock/rate-interval.js';
import { ms, verdict, type Anomaly, type CheckerVerdict } from '../lock/verdict.js';
import { readQueueRun, type Delivery, type JobKey, type QueueRun } from './queue-ops.js';

const NAME = 'total-queue';

export interface QueueCounts {
  attempted: number;
  enqueued: number;
  done: number;
  duplicated: number;
  lost: number;
  recovered: number;
  unexpected: number;
  redelivered: number;
  wasted: number;
  missingLock: number;
  lostIncrements: number;
  phantomIncrements: number;
}

export function checkQueue(history: History): CheckerVerdict {
  const run = readQueueRun(history);
  const records = recordsByJob(run);
  const counts = countsOf(run, records);
  const anomalies = anomaliesOf(run, records, counts);
  const ci = wilsonInterval(counts.duplicated, counts.done);
  const stats: Record<string, number> = { ...counts, duplicatedPerThousandLow: ci.low * 1000, duplicatedPerThousandHigh: ci.high * 1000 };
  const summary =
    `${counts.duplicated} of ${counts.done} jobs done twice or more (${perThousand(counts.done === 0 ? 0 : counts.duplicated / counts.done)} per 1,000, 95% CI ${perThousand(ci.low)}–${perThousand(ci.high)}), ` +
    `${counts.lost} lost, ${counts.unexpected} unexpected, ${counts.lostIncrements} lost increment(s); ${counts.wasted} wasted effect(s) refused, ` +
    `${counts.missingLock} completion(s) refused for a missing lock, ${counts.redelivered} job(s) delivered twice or more`;
  if (anomalies.length > 0) return verdict(NAME, false, summary, anomalies, stats);
  // A checker that read nothing says so: no job enqueued ok is no evidence of anything.
  if (counts.enqueued === 0) return verdict(NAME, 'unknown', `no job was enqueued ok: nothing was tested (${summary})`, [], stats);
  if (run.final === undefined) return verdict(NAME, 'unknown', `no successful final read: the resource's done records are unknown (${summary})`, [], stats);
  return verdict(NAME, true, summary, [], stats);
}

/** Whether the job's enqueue was invoked and did not fail (it may be in the queue). */
function wasAttempted(run: QueueRun, job: JobKey): boolean {
  const e = run.enqueues.get(job);
  return e !== undefined && e.status !== 'fail';
}

/** The done records per job: the final read's, or (without one) the accepted effects the history shows. */
function recordsByJob(run: QueueRun): Map<JobKey, number> {
  const by = new Map<JobKey, number>();
  if (run.final !== undefined) for (const r of run.final.done) by.set(r.job, (by.get(r.job) ?? 0) + 1);
  else for (const e of run.effects) if (e.op.status === 'ok') by.set(e.job, (by.get(e.job) ?? 0) + 1);
  return by;
}

function countsOf(run: QueueRun, records: Map<JobKey, number>): QueueCounts {
  const takes = new Map<JobKey, number>();
  for (const t of run.takes) takes.set(t.job, (takes.get(t.job) ?? 0) + 1);
  const enqueued = [...run.enqueues.values()].filter((e) => e.status === 'ok');
  const attempted = (job: JobKey): boolean => wasAttempted(run, job);
  const doneJobs = [...records.entries()].filter(([, n]) => n > 0);
  const recordCount = doneJobs.reduce((t, [, n]) => t + n, 0);
  const counter = run.final?.counter;
  return {
    attempted: run.enqueues.size,
    enqueued: enqueued.length,
    done: doneJobs.filter(([job]) => attempted(job)).length,
    duplicated: doneJobs.filter(([job, n]) => n > 1 && attempted(job)).length,
    lost: run.final === undefined ? 0 : [...run.enqueues.entries()].filter(([job, e]) => e.status === 'ok' && !records.has(job)).length,
    recovered: doneJobs.filter(([job]) => run.enqueues.has(job) && (run.enqueues.get(job)!.status === 'info' || run.enqueues.get(job)!.status === 'pending'))
      .length,
    unexpected: doneJobs.filter(([job]) => !attempted(job)).length,
    redelivered: [...takes.values()].filter((n) => n > 1).length,
    wasted: run.effects.filter((e) => e.op.status === 'fail' && e.op.outcome === 'rejected').length,
    missingLock: run.completes.filter((c) => c.op.status === 'fail' && c.error === 'missing-lock').length,
    lostIncrements: counter === undefined ? 0 : Math.max(0, recordCount - counter),
    phantomIncrements: counter === undefined ? 0 : Math.max(0, counter - recordCount),
  };
}

function anomaliesOf(run: QueueRun, records: Map<JobKey, number>, counts: QueueCounts): Anomaly[] {
  const out: Anomaly[] = [];
  const shown = (job: JobKey): string => run.shown.get(job) ?? job;
  const attempted = (job: JobKey): boolean => wasAttempted(run, job);
  for (const [job, n] of records) {
    if (n > 1 && attempted(job)) out.push(effectAnomaly('duplicate-job', job, `job ${shown(job)}'s effect landed ${n} times`, run));
    if (!attempted(job))
      out.push(
        effectAnomaly(
          'phantom-update',
          job,
          `job ${shown(job)} has a done record but was ${run.enqueues.has(job) ? 'refused at its enqueue' : 'never enqueued'}`,
          run,
        ),
      );
  }
  if (run.final !== undefined) {
    for (const [job, e] of run.enqueues) {
      if (e.status !== 'ok' || records.has(job)) continue;
      out.push({
        kind: 'lost-job',
        message: `job ${shown(job)} was enqueued ok at ${ms(e.completeTime!)} but no effect of it landed by the final read`,
        processes: [e.process],
        tokens: [],
        window: { start: e.invokeTime, end: run.final.op.completeTime! },
        opIndexes: [...indexesOf(e), ...indexesOf(run.final.op)],
      });
    }
    if (counts.lostIncrements > 0 || counts.phantomIncrements > 0) {
      const f = run.final.op;
      const recordCount = run.final.done.length;
      out.push({
        kind: counts.lostIncrements > 0 ? 'lost-update' : 'phantom-update',
        message: `the jobs' counter is ${run.final.counter} after ${recordCount} done record(s): ${counts.lostIncrements > 0 ? `${counts.lostIncrements} increment(s) lost` : `${counts.phantomIncrements} increment(s) no record accounts for`}`,
        processes: [f.process],
        tokens: [],
        window: { start: f.invokeTime, end: f.completeTime! },
        opIndexes: indexesOf(f),
      });
    }
  }
  return out;
}

/** An anomaly about one job's effects: the effects of it the history shows, accepted or unknown. */
function effectAnomaly(kind: Anomaly['kind'], job: JobKey, message: string, run: QueueRun): Anomaly {
  const effects = run.effects.filter((e) => e.job === job && e.op.status !== 'fail');
  const ops = effects.map((e) => e.op);
  const start = ops.length === 0 ? (run.final?.op.invokeTime ?? 0) : Math.min(...ops.map((o) => o.invokeTime));
  const end = ops.length === 0 ? (run.final?.op.completeTime ?? start) : Math.max(...ops.map((o) => o.completeTime ?? o.invokeTime));
  return {
    kind,
    message: `${message}${whoseEffects(job, effects, run)}`,
    processes: [...new Set(ops.map((o) => o.process))],
    tokens: [],
    window: { start, end },
    opIndexes: ops.flatMap(indexesOf),
  };
}

/**
 * Whose effects they were, for a person: the final read's records name each landed effect's attempt and
 * worker (a person looks for w1, not for the history's process p44); without a final read, the effects the
 * history shows, by process.
 */
function whoseEffects(job: JobKey, effects: readonly Delivery[], run: QueueRun): string {
  const records = run.final?.done.filter((r) => r.job === job) ?? [];
  if (records.length > 0)
    return ` (${records.map((r) => `attempt ${r.attempt} by ${typeof r.worker === 'string' ? r.worker : JSON.stringify(r.worker)}`).join(', ')})`;
  if (effects.length === 0) return '';
  return ` (attempts ${effects.map((e) => e.attempt).join(', ')}, by p${[...new Set(effects.map((e) => e.op.process))].join(', p')})`;
}
