/**
 * A job-queue history as the queue checker reads it (pure): the producer's
 * enqueues, the workers' deliveries, effects and completions, and the final
 * read of the resource (docs/lock-workloads.md, "queue"). Jepsen records a
 * queue the same way (an enqueue invoked, then ok, fail or info; a dequeue
 * answered with its value); what a lock question adds is the job's side
 * effect on the protected resource and whether the queue let its worker
 * complete it:
 *
 *   enqueue    invoke value J (the job's id: an integer or a string), ok / fail / info
 *   take       invoke null, ok value {job: J, attempt: A}: the queue delivered J,
 *              its A-th delivery (the library's attempt or delivery number)
 *   effect     invoke value {job: J, attempt: A}; ok (accepted), fail with
 *              outcome "rejected" (the resource refused it), info (unknown)
 *   complete   invoke value {job: J, attempt: A}; ok, or fail (error
 *              "missing-lock": the queue refused it, the job's lock had passed on)
 *   final-read ok value {done: [{job: J, attempt: A, worker: W}, ...], counter: N}:
 *              the resource's done records and the jobs' counter after the run
 *
 * A history that does not fit is refused (exit 254) at its op, with what was
 * expected: a verdict from ops the checker cannot read would be a guess.
 */
import { EXIT, FencecheckError } from '../../errors.js';
import { isValueRecord, type History, type Value } from '../../history/op.js';
import { lockOps, type LockOp } from '../lock/lock-ops.js';

/** A job's id as a key: an integer and its decimal string are different ids (JSON keeps them apart). */
export type JobKey = string;

export interface Delivery {
  job: JobKey;
  attempt: number;
  op: LockOp;
  /** The completion's error code (`missing-lock`, ...), when it has one. */
  error: string | undefined;
}

export interface DoneRecord {
  job: JobKey;
  attempt: number;
  worker: Value;
}

export interface QueueRun {
  /** Each enqueued job's enqueue, by job, in invocation order. */
  enqueues: Map<JobKey, LockOp>;
  takes: Delivery[];
  effects: Delivery[];
  completes: Delivery[];
  /** The last successful final read, or undefined (none, or none answered). */
  final: { done: DoneRecord[]; counter: number; op: LockOp } | undefined;
  /** Job ids as the history wrote them, for messages. */
  shown: Map<JobKey, string>;
}

export const QUEUE_FS = ['enqueue', 'take', 'effect', 'complete', 'final-read'] as const;

/** A queue history that does not fit the workload: exit 254, naming the op. */
export class QueueHistoryError extends FencecheckError {
  constructor(index: number, expected: string, found: Value | undefined) {
    super('queue-history', `op #${index}: expected ${expected}, found ${found === undefined ? 'nothing' : JSON.stringify(found)}`, {
      hint: 'A queue history holds enqueue, take, effect, complete and final-read ops as docs/lock-workloads.md ("queue") describes them.',
      exitCode: EXIT.badInput,
    });
  }
}

export function readQueueRun(history: History): QueueRun {
  const run: QueueRun = { enqueues: new Map(), takes: [], effects: [], completes: [], final: undefined, shown: new Map() };
  const completion = new Map(history.map((h) => [h.index, h]));
  const errorOf = (op: LockOp): string | undefined => {
    const e = op.completeIndex === undefined ? undefined : completion.get(op.completeIndex)?.error;
    return typeof e === 'string' ? e : undefined;
  };
  for (const op of lockOps(history)) {
    switch (op.f) {
      case 'enqueue': {
        const job = jobKeyOf(op.value, op.invokeIndex, run);
        if (run.enqueues.has(job))
          throw new QueueHistoryError(
            op.invokeIndex,
            `each job enqueued once (job ${run.shown.get(job)} was enqueued at op #${run.enqueues.get(job)!.invokeIndex})`,
            op.value,
          );
        run.enqueues.set(job, op);
        break;
      }
      case 'take':
        if (op.status === 'ok') run.takes.push(deliveryOf(op.result, op, op.completeIndex!, run, undefined));
        break;
      case 'effect':
        run.effects.push(deliveryOf(op.value, op, op.invokeIndex, run, errorOf(op)));
        break;
      case 'complete':
        run.completes.push(deliveryOf(op.value, op, op.invokeIndex, run, errorOf(op)));
        break;
      case 'final-read':
        if (op.status === 'ok') run.final = finalOf(op, run);
        break;
      default:
        throw new QueueHistoryError(op.invokeIndex, `an op of the queue workload (${QUEUE_FS.join(', ')})`, op.f);
    }
  }
  return run;
}

function jobKeyOf(v: Value, index: number, run: QueueRun): JobKey {
  if (!(typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v))))
    throw new QueueHistoryError(index, 'a job id (an integer or a string)', v);
  const key = `${typeof v === 'number' ? 'n' : 's'}${v}`;
  run.shown.set(key, JSON.stringify(v));
  return key;
}

function attemptOf(v: Value | undefined, index: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new QueueHistoryError(index, "a delivery's attempt (a non-negative integer)", v);
  return v;
}

function deliveryOf(v: Value, op: LockOp, index: number, run: QueueRun, error: string | undefined): Delivery {
  if (!isValueRecord(v)) throw new QueueHistoryError(index, `{"job": J, "attempt": A} on ${op.f}`, v);
  return { job: jobKeyOf(v['job'] ?? null, index, run), attempt: attemptOf(v['attempt'], index), op, error };
}

function finalOf(op: LockOp, run: QueueRun): QueueRun['final'] {
  const index = op.completeIndex!;
  const v = op.result;
  if (!isValueRecord(v) || !Array.isArray(v['done'])) throw new QueueHistoryError(index, 'a final read {"done": [...], "counter": N}', v);
  const counter = v['counter'];
  if (typeof counter !== 'number' || !Number.isSafeInteger(counter)) throw new QueueHistoryError(index, "the final read's counter (an integer)", counter);
  const done = v['done'].map((r): DoneRecord => {
    if (!isValueRecord(r)) throw new QueueHistoryError(index, 'a done record {"job": J, "attempt": A, "worker": W}', r);
    return { job: jobKeyOf(r['job'] ?? null, index, run), attempt: attemptOf(r['attempt'], index), worker: r['worker'] ?? null };
  });
  return { done, counter, op };
}
