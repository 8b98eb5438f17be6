/**
 * The history data model, shared by every part of fencecheck (see docs/history.md).
 *
 * A history is a sequence of operations as Jepsen records them: a client
 * process *invokes* an operation, and later the same process *completes* it
 * with `ok` (it happened), `fail` (it definitely did not happen) or `info` (it
 * may or may not have happened; the process never invokes again). Times are
 * nanoseconds since the start of the test on a monotonic clock.
 */

/** A JSON value: what `value`, `error` and extra fields may hold. EDN keywords import as strings. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** A value that is a JSON object (a nemesis op's `{target, ms}`, say). */
export function isValueRecord(v: Value | undefined): v is { [key: string]: Value } {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

export type OpType = 'invoke' | 'ok' | 'fail' | 'info';

/** A client process is an integer; the fault injector is `"nemesis"`. */
export type Process = number | 'nemesis';

export interface Op {
  /** Position in the history, 0-based, strictly increasing. */
  index: number;
  /** Nanoseconds since the test started (monotonic clock). */
  time: number;
  process: Process;
  type: OpType;
  /** The operation's function, e.g. `read`, `write`, `cas`, `acquire`. */
  f: string;
  value: Value;
  error?: Value;
  /** Free extra fields: node, token, lease, ... */
  [extra: string]: Value | undefined;
}

export type History = Op[];
