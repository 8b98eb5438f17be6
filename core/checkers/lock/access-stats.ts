/**
 * What the run did, counted: completions by `f` (ok, fail, info, pending),
 * resource accesses by outcome (accepted, rejected, unknown), and the share
 * of acquires granted. Not a safety check: it is valid unless the history has
 * no acquire at all ('unknown': nothing was tested). Its one judgement is
 * about liveness: a fence that rejected every write kept the data safe by
 * keeping everyone out, which its summary says ("safe but useless") and
 * its stats flag (`useless: 1`). Without a lock (`--backend none`) there is
 * no acquire to count: it is valid once the history has an access.
 */
import type { History } from '../../history/op.js';
import { ACCESS_FS, lockOps, type AccessOutcome, type LockOp } from './lock-ops.js';
import { verdict, type CheckerVerdict, type LockChecker, type LockContext } from './verdict.js';

const NAME = 'access-stats';

export const accessStatsChecker: LockChecker = {
  name: NAME,
  check(history: History, context?: LockContext): CheckerVerdict {
    const stats: Record<string, number> = {};
    const add = (key: string): void => {
      stats[key] = (stats[key] ?? 0) + 1;
    };
    for (const op of lockOps(history)) {
      add(`${op.f}.invoked`);
      add(`${op.f}.${op.status}`);
      if (ACCESS_FS.includes(op.f)) add(`${op.f}.${outcomeOf(op)}`);
    }
    const acquires = stats['acquire.invoked'] ?? 0;
    const lockless = context?.backend === 'none';
    if (lockless && ACCESS_FS.every((f) => stats[`${f}.invoked`] === undefined))
      return verdict(NAME, 'unknown', 'the history has no access: nothing was tested', [], stats);
    if (!lockless && acquires === 0) return verdict(NAME, 'unknown', 'the history has no acquire: nothing was tested', [], stats);
    const granted = stats['acquire.ok'] ?? 0;
    if (!lockless) stats.acquireSuccessRate = granted / acquires;
    const writes = (['accepted', 'rejected', 'unknown'] as const).map((o) => stats[`write.${o}`] ?? 0);
    const [accepted, rejected, unknown] = writes as [number, number, number];
    const useless = accepted === 0 && rejected > 0;
    if (useless) stats.useless = 1;
    const summary =
      (lockless ? 'no lock; ' : `${granted} of ${acquires} acquires granted (${Math.round(100 * stats.acquireSuccessRate!)}%); `) +
      `writes: ${accepted} accepted, ${rejected} rejected, ${unknown} unknown` +
      (useless ? '; the fence rejected every write: safe but useless' : '');
    return verdict(NAME, true, summary, [], stats);
  },
};

/** The access's `outcome` field when the client recorded one, else what its completion type implies. */
function outcomeOf(op: LockOp): AccessOutcome {
  if (op.outcome !== undefined) return op.outcome;
  if (op.status === 'ok') return 'accepted';
  if (op.status === 'fail') return 'rejected';
  return 'unknown';
}
