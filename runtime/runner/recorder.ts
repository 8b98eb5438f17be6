/**
 * Records a run's history as it happens: gives each op its index and its time
 * (ns since the run started, on the run's monotonic clock: wall-clock faults
 * must not bend the history), appends it to history.jsonl at once when the
 * run has a file (so an interrupted run can still be checked) and keeps it in
 * memory for the checkers. The runner is one Node process, so appends never
 * interleave.
 *
 * A failed append (a full disk) does not throw into the worker that recorded
 * the op (that used to end the run as an unhandled rejection with a stack
 * trace): the op is kept in memory, the first failure is kept in `failure`,
 * the `onFailure` listeners are told once (the runner stops the run), and
 * nothing more is written, so the file keeps every whole line written before.
 */
import type { Op, OpType, Process, Value } from '../../core/history/op.js';
import { JsonlWriter } from '../store/jsonl-writer.js';
import { realClock, type Clock } from './clock.js';

export type Extra = Record<string, Value | undefined>;

export class Recorder {
  readonly ops: Op[] = [];
  private readonly start: bigint;
  private readonly writer: JsonlWriter | undefined;
  private listeners: ((op: Op) => void)[] = [];
  private failureListeners: ((err: Error) => void)[] = [];
  /** The first append that failed; the file holds every op before it. */
  failure: Error | undefined;

  /** `path`: the history file to append to (none: memory only, as in the simulation). */
  constructor(
    path: string | undefined,
    private readonly clock: Clock = realClock,
  ) {
    this.start = clock.nowNs();
    this.writer = path === undefined ? undefined : JsonlWriter.open(path, { truncate: true });
  }

  /** ns since the run started. */
  now(): number {
    return Number(this.clock.nowNs() - this.start);
  }

  /** An absolute reading of the run's clock (decimal text, as clients send `started_ns`), in ns since the run started. */
  fromClockReading(reading: string): number | undefined {
    try {
      return Number(BigInt(reading) - this.start);
    } catch {
      return undefined;
    }
  }

  record(process: Process, type: OpType, f: string, value: Value, extra: Extra = {}): Op {
    const op: Op = { index: this.ops.length, time: this.now(), process, type, f, value };
    for (const [k, v] of Object.entries(extra)) if (v !== undefined) op[k] = v;
    this.ops.push(op);
    if (this.failure === undefined) {
      try {
        this.writer?.append(op);
      } catch (err) {
        this.failure = err instanceof Error ? err : new Error(String(err));
        for (const l of this.failureListeners) l(this.failure);
      }
    }
    for (const l of this.listeners) l(op);
    return op;
  }

  onOp(listener: (op: Op) => void): void {
    this.listeners.push(listener);
  }

  onFailure(listener: (err: Error) => void): void {
    this.failureListeners.push(listener);
  }

  /** Flush and close; a failure to flush is kept like a failed append (the lines already written stay). */
  close(): void {
    try {
      this.writer?.close();
    } catch (err) {
      this.failure ??= err instanceof Error ? err : new Error(String(err));
    }
  }
}
