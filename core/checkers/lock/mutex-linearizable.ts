/**
 * The lock as a linearizable mutex (Knossos' `mutex` model): is there an
 * order of the acquires and releases, each taking effect at one instant
 * within its interval, in which the lock is only acquired when free and only
 * released when held? Only `acquire` and `release` ops are checked; failed
 * ones did not happen, indeterminate ones may or may not have.
 *
 * A lease-based lock fails this whenever a lease expires under a holder that
 * has not released yet: the next acquire succeeds while the model still sees
 * the lock held. That is the point: a lease is not a mutex. The search runs
 * under a deadline (`context.timeoutMs`, default 10 s); running out of it is
 * 'unknown', never true. The deadline is read on `context.now` when given
 * (a simulation's virtual clock), else on the machine's.
 */
import type { History, Op } from '../../history/op.js';
import { check } from '../linearizability/check.js';
import { createModel } from '../models/registry.js';
import type { Operation } from '../operation.js';
import { historyEnd } from './lock-ops.js';
import { ms, verdict, type Anomaly, type CheckerVerdict, type LockChecker, type LockContext } from './verdict.js';

const NAME = 'mutex-linearizable';
export const DEFAULT_TIMEOUT_MS = 10_000;

export const mutexLinearizableChecker: LockChecker = {
  name: NAME,
  check(history: History, context: LockContext): CheckerVerdict {
    const lockOps = history.filter((h) => h.process !== 'nemesis' && (h.f === 'acquire' || h.f === 'release'));
    const result = check(createModel('mutex'), lockOps, { timeoutMs: context.timeoutMs ?? DEFAULT_TIMEOUT_MS, ...(context.now ? { now: context.now } : {}) });
    const { elapsedMs: _elapsed, ...counts } = result.stats;
    // Elapsed time is left out so that the verdict of one history is the same on every machine.
    const stats: Record<string, number> = counts;
    if (result.valid === 'unknown') {
      return verdict(NAME, 'unknown', `undecided: ${result.reason ?? 'no reason given'}`, [], stats);
    }
    if (result.valid === true) {
      return verdict(NAME, true, `the ${counts.operations} acquires and releases are linearizable as a mutex`, [], stats);
    }
    const w = result.witness;
    if (w === undefined) return verdict(NAME, false, 'not linearizable as a mutex (no witness recorded)', [], stats);
    const byIndex = new Map(history.map((h) => [h.index, h]));
    const anomaly: Anomaly = {
      ...notLinearizable(w.op, w.prefix, w.reason, byIndex, historyEnd(history)),
      witness: { prefix: w.prefix.map((o) => o.invokeIndex), op: w.op.invokeIndex, state: w.state, reason: w.reason },
    };
    return verdict(NAME, false, `not linearizable as a mutex: ${anomaly.message}`, [anomaly], stats);
  },
};

function notLinearizable(op: Operation, prefix: readonly Operation[], reason: string, byIndex: Map<number, Op>, end: number): Anomaly {
  const at = (i: number | null): Op | undefined => (i === null ? undefined : byIndex.get(i));
  const invoke = at(op.invokeIndex);
  const complete = at(op.completeIndex);
  const start = invoke?.time ?? 0;
  const stop = op.status === 'pending' ? end : (complete?.time ?? end);
  // The last acquire the prefix linearized is the holder the blocked op ran into.
  const holder = [...prefix].reverse().find((p) => p.f === 'acquire');
  const holderAck = holder === undefined ? undefined : at(holder.completeIndex);
  const processes = [op.process, holder?.process].filter((p): p is number => typeof p === 'number');
  const tokens = [complete?.token, holderAck?.token].filter((t): t is number | string => typeof t === 'number' || typeof t === 'string');
  const answer = op.status !== 'pending' ? `ok at ${ms(stop)}` : complete === undefined ? 'never answered' : `indeterminate (info) at ${ms(complete.time)}`;
  const when = `invoked at ${ms(start)}, ${answer}`;
  const context =
    holder === undefined
      ? `${prefix.length} op(s) linearized before it`
      : `${prefix.length} op(s) linearized before it, the last acquire among them p${String(holder.process)}'s, invoked at ${ms(at(holder.invokeIndex)?.time ?? 0)}`;
  return {
    kind: 'not-linearizable',
    message: `p${String(op.process)}'s ${op.f} (${when}) cannot be linearized: ${reason} (${context}).`,
    processes: [...new Set(processes)],
    tokens,
    window: { start: Math.min(start, holder === undefined ? start : (at(holder.invokeIndex)?.time ?? start)), end: stop },
    opIndexes: [op, holder].flatMap((o) => (o === undefined ? [] : [o.invokeIndex, o.completeIndex])).filter((i): i is number => i !== null),
  };
}
