/**
 * Operations: a history's invoke/complete pairs, the unit a model steps over.
 *
 * `toOperations` pairs each invocation with its process's next completion.
 * An `info` completion, or none at all, leaves the operation *pending*: it may
 * take effect at any time after its invocation, or never, so its return time
 * is +Infinity. A `fail` completion means the operation did not happen and it
 * is dropped, unless the model says that a failure of this `f` is itself an
 * observation (etcd's failed cas: the compare failed at some instant).
 */
import type { Op, Process, Value } from '../history/op.js';

export type OperationStatus = 'ok' | 'fail' | 'pending';

export interface Operation {
  /** 0..n-1 in invocation order; stable, used in witnesses. */
  id: number;
  process: Process;
  f: string;
  /** The invocation's value. */
  input: Value;
  /** The completion's value; null for a pending operation. */
  output: Value;
  status: OperationStatus;
  /** Invocation time (the history's `time`, or its index when the history has no times). */
  call: number;
  /** Completion time; +Infinity for a pending operation. */
  ret: number;
  /** Index of the invoke op in the history. */
  invokeIndex: number;
  /** Index of the completion op in the history, null when it never completed. */
  completeIndex: number | null;
}
