/**
 * What the protection costs, beside whether it held (pure): how many
 * critical sections completed per second, how long one took, how often the
 * resource refused an access and the section tried again, how often a call
 * timed out, and how long reads waited (in the for-update mode a read is
 * SELECT … FOR UPDATE: its time is the wait for the row lock).
 *
 * A section is one acquire to its release; without a lock (no acquire in the
 * history, `--backend none`) it starts at a process's first access and ends
 * at its write, a version conflict's retry (a read recorded with `attempt` ≥
 * 2) staying in the same section. It completed when its write was
 * acknowledged (`ok`), or, on the mutex workload, its release; its latency
 * runs from its first invocation to that completion.
 *
 * This is a measurement, not a safety check: it never decides a run's
 * verdict, and with no completed section it says `unknown` (nothing to
 * measure) rather than a cost of zero.
 */
import type { History } from '../../history/op.js';
import { ACCESS_FS, lockOps, type LockOp } from './lock-ops.js';
import { verdict, type CheckerVerdict, type LockChecker, type LockContext } from './verdict.js';
import { workloadOf } from '../../workloads/registry.js';

const NAME = 'section-cost';

export interface Section {
  start: number;
  /** Its last op's completion; Infinity while one is pending (it may take effect any time). */
  end: number;
  /** When it completed (its write or, mutex, its release acknowledged). */
  completed?: number;
  /** It tried to change the data: a write was invoked in it. */
  wrote: boolean;
}

export const sectionCostChecker: LockChecker = {
  name: NAME,
  decides: () => false,
  check(history: History, context: LockContext): CheckerVerdict {
    const ops = lockOps(history).filter((o) => o.f !== 'final-read');
    const attemptOf = (o: LockOp): number => Number(history[o.invokeIndex]?.['attempt'] ?? 1);
    const errorOf = (o: LockOp): string => (o.completeIndex === undefined ? '' : String(history[o.completeIndex]?.error ?? ''));
    const lockless = !ops.some((o) => o.f === 'acquire');
    const sections = sectionsOf(ops, lockless, !workloadOf(context.workload).accessesResource, attemptOf, errorOf);
    const completed = sections.filter((s) => s.completed !== undefined);
    const accesses = ops.filter((o) => ACCESS_FS.includes(o.f));
    const stats: Record<string, number> = {
      sections: sections.length,
      completed: completed.length,
      refusals: accesses.filter((o) => o.outcome === 'rejected').length,
      retries: accesses.filter((o) => o.f === 'read' && attemptOf(o) > 1).length,
      timeouts: ops.filter((o) => o.status !== 'ok' && /timeout/.test(errorOf(o))).length,
    };
    for (const o of accesses)
      if (o.outcome === 'rejected') stats[`refused.${errorOf(o) || 'rejected'}`] = (stats[`refused.${errorOf(o) || 'rejected'}`] ?? 0) + 1;
    const span = spanSeconds(ops);
    if (completed.length === 0 || span === 0)
      return verdict(NAME, 'unknown', `no section completed: nothing to measure (${stats.sections} started)`, [], stats);
    stats.sectionsPerSecond = round(completed.length / span, 2);
    addPercentiles(
      stats,
      'sectionMs',
      completed.map((s) => s.completed! - s.start),
    );
    addPercentiles(
      stats,
      'readWaitMs',
      accesses.filter((o) => o.f === 'read' && o.completeTime !== undefined).map((o) => o.completeTime! - o.startTime),
    );
    return verdict(NAME, true, summaryOf(stats), [], stats);
  },
};

/** Each process's sections, in order (see the module comment for where one starts and ends). */
export function sectionsOf(
  ops: readonly LockOp[],
  lockless: boolean,
  mutex: boolean,
  attemptOf: (o: LockOp) => number,
  errorOf: (o: LockOp) => string,
): Section[] {
  const out: Section[] = [];
  const open = new Map<number, Section>();
  for (const o of ops) {
    let s = open.get(o.process);
    const starts = lockless ? ACCESS_FS.includes(o.f) && (s === undefined || (o.f === 'read' && attemptOf(o) === 1)) : o.f === 'acquire';
    if (starts) {
      s = { start: o.invokeTime, end: o.invokeTime, wrote: false };
      out.push(s);
      open.set(o.process, s);
    }
    if (s === undefined) continue;
    s.end = Math.max(s.end, o.completeTime ?? Infinity);
    if (o.f === 'write') s.wrote = true;
    const done = mutex ? o.f === 'release' && o.status === 'ok' : o.f === 'write' && o.status === 'ok';
    if (done && s.completed === undefined) s.completed = o.completeTime;
    // Without a lock a section ends with its write, unless a version conflict sends it round again.
    if (lockless && o.f === 'write' && !(o.status === 'fail' && errorOf(o) === 'version-changed')) open.delete(o.process);
  }
  return out;
}

/** Seconds from the first client invocation to the last completion. */
function spanSeconds(ops: readonly LockOp[]): number {
  if (ops.length === 0) return 0;
  const first = Math.min(...ops.map((o) => o.invokeTime));
  const last = Math.max(...ops.map((o) => o.completeTime ?? o.invokeTime));
  return (last - first) / 1e9;
}

/** p50, p95, p99 and max (nearest rank) of durations in ns, as ms. */
function addPercentiles(stats: Record<string, number>, key: string, ns: readonly number[]): void {
  if (ns.length === 0) return;
  const sorted = [...ns].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  stats[`${key}.p50`] = round(at(0.5) / 1e6, 1);
  stats[`${key}.p95`] = round(at(0.95) / 1e6, 1);
  stats[`${key}.p99`] = round(at(0.99) / 1e6, 1);
  stats[`${key}.max`] = round(sorted[sorted.length - 1]! / 1e6, 1);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function summaryOf(s: Record<string, number>): string {
  const refused = Object.entries(s)
    .filter(([k]) => k.startsWith('refused.'))
    .map(([k, n]) => `${k.slice('refused.'.length)} ${n}`);
  return (
    `${s.sectionsPerSecond} sections/s (${s.completed} of ${s.sections} completed); ` +
    `section p50 ${s['sectionMs.p50']} ms, p99 ${s['sectionMs.p99']} ms; ` +
    `${s.refusals} refused${refused.length > 0 ? ` (${refused.join(', ')})` : ''}, ${s.retries} retries, ${s.timeouts} timeouts` +
    (s['readWaitMs.p99'] !== undefined ? `; read wait p50 ${s['readWaitMs.p50']} ms, p99 ${s['readWaitMs.p99']} ms, max ${s['readWaitMs.max']} ms` : '')
  );
}
