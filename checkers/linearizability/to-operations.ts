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
 */
import type { History, Op } from '../../src/history/op.js';
import type { Model } from '../model.js';
import type { Operation } from '../operation.js';

/** How a `fail` completion is read: did not happen, an observation to check, or unknown. */
export type FailPolicy = 'dropped' | 'observation' | 'pending';

export interface OperationsOptions {
  /** How to read a fail completion of this op; default 'dropped'. */
  onFail?: (invoke: Op, complete: Op) => FailPolicy;
  /** A pending op that can never constrain the search (e.g. a read with no result) is dropped. */
  isInert?: (op: Operation) => boolean;
}

export function toOperations(history: History, opts: OperationsOptions = {}): Operation[] {
  const useTime = hasMonotonicTimes(history);
  const open = new Map<number | string, { op: Op; id: number }>();
  const ops: Operation[] = [];
  for (const h of history) {
    if (h.process === 'nemesis') continue;
    if (h.type === 'invoke') {
      const id = ops.length;
      ops.push({
        id,
        process: h.process,
        f: h.f,
        input: h.value,
        output: null,
        status: 'pending',
        call: useTime ? h.time : h.index,
        ret: Infinity,
        invokeIndex: h.index,
        completeIndex: null,
      });
      open.set(h.process, { op: h, id });
      continue;
    }
    const started = open.get(h.process);
    // A completion without an invocation is a malformed history; readers reject it. Skip defensively.
    if (started === undefined) continue;
    open.delete(h.process);
    const operation = ops[started.id]!;
    operation.completeIndex = h.index;
    if (h.type === 'ok') {
      operation.status = 'ok';
      operation.output = h.value;
      operation.ret = useTime ? h.time : h.index;
    } else if (h.type === 'fail') {
      const policy = opts.onFail ? opts.onFail(started.op, h) : 'dropped';
      if (policy === 'observation') {
        operation.status = 'fail';
        operation.output = h.value;
        operation.ret = useTime ? h.time : h.index;
      } else if (policy === 'dropped') {
        operation.status = 'fail';
        operation.ret = -1; // marker: removed below
      }
      // 'pending': leave it open.
    }
    // 'info': stays pending with ret = +Infinity.
  }
  const kept = ops.filter(
    (o) => o.ret !== -1 && !(o.status === 'pending' && opts.isInert !== undefined && opts.isInert(o)),
  );
  kept.forEach((o, i) => (o.id = i));
  return kept;
}

function hasMonotonicTimes(history: History): boolean {
  let last = -Infinity;
  for (const op of history) {
    if (typeof op.time !== 'number' || !Number.isFinite(op.time) || op.time < last) return false;
    last = op.time;
  }
  return history.length > 0;
}
