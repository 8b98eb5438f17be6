/**
 * The `jobs` workload's checker: was every job done exactly once? (pure)
 *
 * The resource's row is a job stream's position: `data` = n says jobs 1..n
 * are done. A worker takes the lock, reads the position (the check that its
 * job, n + 1, is not done yet), does the job (its hold, `--hold-ms`), and
 * records it done by writing n + 1. So every write of value j is job j's
 * done record, and the history says, per job, how often it ran:
 *
 *   - an accepted record (write ok) is a run whose effect landed;
 *   - a refused one (write fail, outcome rejected: a fence, a version
 *     conflict) is a run the resource caught: the work was wasted, but the
 *     job was not recorded twice (`wasted`);
 *   - an indeterminate one (info, or never answered) may have landed.
 *
 * A job with two or more accepted records ran twice with effect: the
 * article's "double run" (a duplicate). A job whose record was acknowledged
 * but lies beyond the final position was lost: a stale holder's record set
 * the position back, and the stream never came back to it before the run
 * ended (while it runs, such a job is done again: more duplicates). A final
 * position that is neither 0 nor the value of any write that may have
 * applied is a phantom: the history contradicts itself (false, as the
 * counter's phantom in lost-updates.ts).
 *
 * The rates are per job done: duplicated jobs per 1,000 jobs with Wilson's
 * 95 % interval (rate-interval.ts), and duplicates per hour at the run's
 * fault rate: the span of the client ops is the time the faults were
 * striking, at the rate the run applied them (stats `faultsApplied`,
 * `spanS`).
 */
import type { History, Value } from '../../history/op.js';
import { faultsOf } from './evidence.js';
import { counterOf, finalReadFailures } from './lost-updates.js';
import { describeToken, indexesOf, lockOps, type LockOp } from './lock-ops.js';
import { wilsonInterval } from './rate-interval.js';
import { ms, verdict, type Anomaly, type CheckerVerdict, type LockChecker } from './verdict.js';

const NAME = 'jobs';

/** The done records of one job, by outcome. */
interface JobRuns {
  job: number;
  accepted: LockOp[];
  refused: number;
  maybe: number;
}

export const jobsChecker: LockChecker = {
  name: NAME,
  check(history: History): CheckerVerdict {
    const ops = lockOps(history);
    const runs = jobRuns(ops);
    const finalRead = [...ops].reverse().find((o) => o.f === 'final-read' && o.status === 'ok');
    const final = finalRead === undefined ? undefined : counterOf(finalRead.result);
    const done = [...runs.values()].filter((r) => r.accepted.length > 0);
    const duplicated = done.filter((r) => r.accepted.length > 1);
    const lost = final === undefined ? [] : done.filter((r) => r.job > final);
    const stats = statsOf(history, ops, runs, done, duplicated, lost);
    if (final !== undefined) stats.final = final;
    const anomalies: Anomaly[] = [...duplicated.map(duplicate), ...lost.map((r) => lostJob(r, final!, finalRead!))];
    if (final !== undefined && final !== 0 && !(runs.get(final)?.accepted.length || runs.get(final)?.maybe)) anomalies.push(phantom(final, finalRead!));
    const rate = `${duplicated.length} of ${done.length} jobs done twice or more, ${lost.length} lost, ${stats.wasted} wasted run(s) the resource refused`;
    if (anomalies.length > 0) return verdict(NAME, false, rate, anomalies, stats);
    if (final === undefined)
      return verdict(
        NAME,
        'unknown',
        `no successful final read${finalReadFailures(history)}: the ${done.length} jobs recorded done cannot be checked against the stream's position`,
        [],
        stats,
      );
    return verdict(
      NAME,
      true,
      `every one of ${done.length} jobs done exactly once (${stats.wasted} wasted run(s) refused, ${stats.maybeRuns} indeterminate)`,
      [],
      stats,
    );
  },
};

/** Each job's done records (writes of its number), in invocation order. */
function jobRuns(ops: readonly LockOp[]): Map<number, JobRuns> {
  const runs = new Map<number, JobRuns>();
  for (const op of ops) {
    if (op.f !== 'write') continue;
    const job = counterOf(op.value);
    if (job === undefined) continue;
    const r = runs.get(job) ?? { job, accepted: [], refused: 0, maybe: 0 };
    runs.set(job, r);
    if (op.status === 'ok') r.accepted.push(op);
    else if (op.status === 'fail') r.refused += op.outcome === 'rejected' ? 1 : 0;
    else r.maybe++;
  }
  return runs;
}

function statsOf(
  history: History,
  ops: readonly LockOp[],
  runs: Map<number, JobRuns>,
  done: readonly JobRuns[],
  duplicated: readonly JobRuns[],
  lost: readonly JobRuns[],
): Record<string, number> {
  const all = [...runs.values()];
  const client = ops.filter((o) => o.f !== 'final-read');
  const first = Math.min(...client.map((o) => o.invokeTime));
  const last = Math.max(...client.map((o) => o.completeTime ?? o.invokeTime));
  const spanS = client.length === 0 ? 0 : (last - first) / 1e9;
  const ci = wilsonInterval(duplicated.length, done.length);
  const stats: Record<string, number> = {
    jobs: done.length,
    duplicates: duplicated.length,
    extraRuns: done.reduce((t, r) => t + r.accepted.length - 1, 0),
    lost: lost.length,
    wasted: all.reduce((t, r) => t + r.refused, 0),
    maybeRuns: all.reduce((t, r) => t + r.maybe, 0),
    faultsApplied: faultsOf(history, undefined).applied,
    spanS: Math.round(spanS * 10) / 10,
    ciLow: ci.low,
    ciHigh: ci.high,
  };
  if (done.length > 0) stats.duplicatesPerThousand = Math.round((10_000 * duplicated.length) / done.length) / 10;
  if (spanS > 0) stats.duplicatesPerHour = Math.round((36_000 * duplicated.length) / spanS) / 10;
  return stats;
}

function duplicate(r: JobRuns): Anomaly {
  const [a, b] = r.accepted;
  const runs = r.accepted.map((w) => `p${w.process} (${describeToken(w.token)}) ok at ${ms(w.completeTime ?? w.invokeTime)}`).join('; ');
  return {
    kind: 'duplicate-job',
    message: `job ${r.job} was recorded done ${r.accepted.length} times: ${runs}. Each of them ran it.`,
    processes: [...new Set(r.accepted.map((w) => w.process))],
    tokens: r.accepted.flatMap((w) => (w.token === undefined ? [] : [w.token])),
    window: { start: a!.invokeTime, end: Math.max(...r.accepted.map((w) => w.completeTime ?? w.invokeTime), b!.invokeTime) },
    opIndexes: r.accepted.flatMap(indexesOf),
  };
}

function lostJob(r: JobRuns, final: number, finalRead: LockOp): Anomaly {
  const w = r.accepted[r.accepted.length - 1]!;
  return {
    kind: 'lost-job',
    message: `job ${r.job} was recorded done by p${w.process} (ok at ${ms(w.completeTime ?? w.invokeTime)}), but the final position is ${final}: a later record set the stream back and the job's record is gone.`,
    processes: [w.process, finalRead.process],
    tokens: w.token === undefined ? [] : [w.token],
    window: { start: w.invokeTime, end: finalRead.completeTime ?? finalRead.invokeTime },
    opIndexes: [...indexesOf(w), ...indexesOf(finalRead)],
  };
}

function phantom(final: number, finalRead: LockOp): Anomaly {
  return {
    kind: 'phantom-update',
    message: `the final read (ok at ${ms(finalRead.completeTime ?? 0)}) found position ${final}, but no write of job ${final} may have applied: a write recorded as failed did apply, or something outside the test wrote.`,
    processes: [finalRead.process],
    tokens: [],
    window: { start: 0, end: finalRead.completeTime ?? finalRead.invokeTime },
    opIndexes: indexesOf(finalRead),
  };
}
