/**
 * Pair a history's invocations with their completions (see operation.ts).
 *
 * Why pending ops get +Infinity: an `info` completion tells us nothing about
 * when (or whether) the operation took effect, so its interval stays open to
 * the end of time, as in Knossos and Porcupine.
 *
 * Real-time order: when every op has a `time` and times never go backwards
 * along the history, events are ordered by time; otherwise by history index
 * (Jepsen writes events in real-time order, and the Knossos corpus has
 * per-thread times that are not monotonic in the history).
 *
 * OperationPairer does the pairing op by op, so a long history can be paired
 * as it is read, without holding its ops: whether times are monotonic is
 * known only at the end, so an operation records times and indexes and takes
 * one of them in `finish`.
 */
import type { CompletionCheck } from '../../history/history-warning.js';
import type { History, Op } from '../../history/op.js';
import { completionContradiction, HistoryError } from '../../history/validate-history.js';
import type { FailPolicy } from '../model.js';
import type { Operation } from '../operation.js';

export interface OperationsOptions {
  /** How to read a fail completion of this op; default 'dropped'. */
  onFail?: (invoke: Op, complete: Op) => FailPolicy;
  /** A pending op that can never constrain the search (e.g. a read with no result) is dropped. */
  isInert?: (op: Operation) => boolean;
  /** What a completion may not say against its invocation, as the model reads it (checkers/models/value-shapes.ts). */
  checkCompletion?: CompletionCheck;
}

export function toOperations(history: History, opts: OperationsOptions = {}): Operation[] {
  const pairer = new OperationPairer(opts);
  for (const h of history) pairer.push(h);
  return pairer.finish();
}

export class OperationPairer {
  private readonly open = new Map<number | string, { op: Op; id: number }>();
  private readonly ops: Operation[] = [];
  /** Whether every op so far has a finite `time`, never going backwards. */
  private monotonic = true;
  private lastTime = -Infinity;
  private seen = 0;

  constructor(private readonly opts: OperationsOptions = {}) {}

  push(h: Op): void {
    this.seen++;
    if (this.monotonic) {
      if (typeof h.time !== 'number' || !Number.isFinite(h.time) || h.time < this.lastTime) this.monotonic = false;
      else this.lastTime = h.time;
    }
    if (h.process === 'nemesis') return;
    if (h.type === 'invoke') {
      const id = this.ops.length;
      this.ops.push({
        id,
        process: h.process,
        f: h.f,
        input: h.value,
        output: null,
        status: 'pending',
        call: this.monotonic ? h.time : h.index,
        ret: Infinity,
        invokeIndex: h.index,
        completeIndex: null,
      });
      this.open.set(h.process, { op: h, id });
      return;
    }
    const started = this.open.get(h.process);
    // Readers refuse these (validate-history.ts); a history handed to the checker directly must not get a verdict
    // either: skipping a completion (or pairing it with an invocation it contradicts) can turn invalid into valid.
    if (started === undefined) throw new HistoryError('unmatched-completion', h, `completion with no open invocation by process ${h.process}`);
    const contradiction = completionContradiction(started.op, h, this.opts.checkCompletion);
    if (contradiction !== null) throw new HistoryError(contradiction.problem, h, contradiction.detail);
    this.open.delete(h.process);
    const operation = this.ops[started.id]!;
    operation.completeIndex = h.index;
    if (h.type === 'ok') {
      operation.status = 'ok';
      operation.output = h.value;
      operation.ret = this.monotonic ? h.time : h.index;
    } else if (h.type === 'fail') {
      const policy = this.opts.onFail ? this.opts.onFail(started.op, h) : 'dropped';
      if (policy === 'observation') {
        operation.status = 'fail';
        operation.output = h.value;
        operation.ret = this.monotonic ? h.time : h.index;
      } else if (policy === 'dropped') {
        operation.status = 'fail';
        operation.ret = -1; // marker: removed below
      }
      // 'pending': leave it open.
    }
    // 'info': stays pending with ret = +Infinity.
  }

  /** The operations, in invocation order, ids 0..n-1. */
  finish(): Operation[] {
    const useTime = this.monotonic && this.seen > 0;
    const { isInert } = this.opts;
    const kept = this.ops.filter((o) => o.ret !== -1 && !(o.status === 'pending' && isInert !== undefined && isInert(o)));
    kept.forEach((o, i) => {
      o.id = i;
      // Times went backwards somewhere: order by history index instead (set above only while times were monotonic).
      if (!useTime) {
        o.call = o.invokeIndex;
        if (o.ret !== Infinity) o.ret = o.completeIndex!;
      }
    });
    return kept;
  }
}
