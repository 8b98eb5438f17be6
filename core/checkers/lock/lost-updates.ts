/**
 * Lost updates of the `lock-counter` workload: every holder reads the counter
 * and writes it plus one, so an acknowledged increment (a `write` completed
 * ok) that the final counter does not reflect was lost.
 *
 * Why the bounds hold: the counter starts at 0 and each applied write sets it
 * to a value read earlier plus one, so the counter never exceeds the number
 * of applied writes, and each value above 0 is reached by some applied write.
 * Hence, with A acknowledged writes and M indeterminate ones (`info` or never
 * answered, which may or may not have applied):
 *   - final < A: at least A - final acknowledged increments were lost;
 *   - two acknowledged writes of the same value: two holders read the same
 *     counter and both wrote; the counter kept one of the two increments,
 *     whatever the final value says (an indeterminate write may have filled
 *     the gap). These pairs are the witnesses, with the read each one did;
 *   - final > A + M: more was applied than could have been. A write recorded
 *     `fail` did apply (a client mapped an error to a definite failure that
 *     was not), or something outside the test wrote. The history contradicts
 *     itself, so no other verdict on it can be trusted: this is false
 *     (`phantom-update`), as Jepsen's counter checker calls a value outside
 *     its possible range invalid, not 'unknown'.
 * Values are integers, or integers as strings (the resource's column is text).
 */
import type { History, Value } from '../../history/op.js';
import { describeToken, indexesOf, lockOps, type LockOp } from './lock-ops.js';
import { ms, verdict, type Anomaly, type CheckerVerdict, type LockChecker } from './verdict.js';
import { HARNESS_DIED } from './evidence.js';

const NAME = 'lost-updates';

interface CounterWrite {
  write: LockOp;
  counter: number;
  /** The process's last ok read before the write: what it incremented. */
  read: LockOp | undefined;
}

export const lostUpdatesChecker: LockChecker = {
  name: NAME,
  check(history: History): CheckerVerdict {
    const ops = lockOps(history);
    const acked = ackedWrites(ops);
    const maybe = ops.filter((o) => o.f === 'write' && (o.status === 'info' || o.status === 'pending')).length;
    const finalRead = [...ops].reverse().find((o) => o.f === 'final-read' && o.status === 'ok');
    const final = finalRead === undefined ? undefined : counterOf(finalRead.result);
    const pairs = sameValuePairs(acked);
    const stats: Record<string, number> = { ackedWrites: acked.length, maybeWrites: maybe, duplicateWrites: pairs.length };
    if (final !== undefined) stats.final = final;
    stats.lost = Math.max(pairs.length, final === undefined ? 0 : acked.length - final);

    const anomalies: Anomaly[] = [];
    if (final !== undefined && finalRead !== undefined && final < acked.length) {
      anomalies.push(shortfall(acked, final, finalRead));
    }
    anomalies.push(...pairs.map(([a, b]) => doubleWrite(a, b)));
    if (final !== undefined && finalRead !== undefined && final > acked.length + maybe) {
      anomalies.push(phantom(acked.length, maybe, final, finalRead));
    }
    if (anomalies.length > 0) {
      return verdict(NAME, false, `${stats.lost} acknowledged increment(s) lost; ${anomalies.length} anomalies`, anomalies, stats);
    }
    if (finalRead === undefined) {
      return verdict(
        NAME,
        'unknown',
        `no successful final read${finalReadFailures(history)}, so the ${acked.length} acknowledged increments cannot be counted`,
        [],
        stats,
      );
    }
    if (final === undefined) {
      return verdict(NAME, 'unknown', `the final read returned ${JSON.stringify(finalRead.result)}, not a counter`, [], stats);
    }
    return verdict(NAME, true, `the final counter ${final} holds all ${acked.length} acknowledged increments (${maybe} indeterminate writes)`, [], stats);
  },
};

/**
 * Why the final reads failed, for the summary: their errors, and a part of the harness that died
 * (harness-watch.ts records it), which is the usual cause and says which log to read.
 */
export function finalReadFailures(history: History): string {
  const errors = [...new Set(history.filter((op) => op.f === 'final-read' && op.type !== 'invoke' && op.error != null).map((op) => String(op.error)))];
  const died = history.find((op) => op.process === 'nemesis' && op.f === HARNESS_DIED);
  const parts = [
    ...(errors.length > 0 ? [`its attempts failed: ${errors.join(', ')}`] : []),
    ...(died ? [`${typeof died.error === 'string' ? died.error : 'a part of the harness died'}`] : []),
  ];
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

function ackedWrites(ops: readonly LockOp[]): CounterWrite[] {
  const lastRead = new Map<number, LockOp>();
  const writes: CounterWrite[] = [];
  for (const op of ops) {
    if (op.f === 'read' && op.status === 'ok') lastRead.set(op.process, op);
    if (op.f !== 'write' || op.status !== 'ok') continue;
    const counter = counterOf(op.value);
    if (counter !== undefined) writes.push({ write: op, counter, read: lastRead.get(op.process) });
  }
  return writes;
}

/** A counter value: an integer, or an integer as text (the resource's column is text). */
export function counterOf(v: Value): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return undefined;
}

/** Acknowledged writes of one value, each paired with the previous one to complete: one pair per lost increment. */
function sameValuePairs(writes: readonly CounterWrite[]): [CounterWrite, CounterWrite][] {
  const byValue = new Map<number, CounterWrite[]>();
  for (const w of writes) byValue.set(w.counter, [...(byValue.get(w.counter) ?? []), w]);
  const pairs: [CounterWrite, CounterWrite][] = [];
  for (const group of byValue.values()) {
    group.sort((a, b) => (a.write.completeTime ?? 0) - (b.write.completeTime ?? 0));
    for (let i = 1; i < group.length; i++) pairs.push([group[i - 1]!, group[i]!]);
  }
  return pairs.sort((a, b) => (a[1].write.completeTime ?? 0) - (b[1].write.completeTime ?? 0));
}

function describeWrite(w: CounterWrite): string {
  const who = `p${w.write.process} (${describeToken(w.write.token)})`;
  const read = w.read === undefined ? 'with no read recorded' : `read ${JSON.stringify(w.read.result)} at ${ms(w.read.invokeTime)}`;
  return `${who} ${read} and wrote ${w.counter}, ok at ${ms(w.write.completeTime ?? w.write.invokeTime)}`;
}

function doubleWrite(a: CounterWrite, b: CounterWrite): Anomaly {
  const starts = [a, b].map((w) => (w.read ?? w.write).invokeTime);
  return {
    kind: 'lost-update',
    message: `${describeWrite(a)}; ${describeWrite(b)}: both increments were acknowledged, the counter kept one.`,
    processes: [a.write.process, b.write.process],
    tokens: [a.write.token, b.write.token].filter((t) => t !== undefined),
    window: { start: Math.min(...starts), end: Math.max(a.write.completeTime ?? 0, b.write.completeTime ?? 0) },
    opIndexes: [a, b].flatMap((w) => [...(w.read ? indexesOf(w.read) : []), ...indexesOf(w.write)]),
  };
}

function shortfall(acked: readonly CounterWrite[], final: number, finalRead: LockOp): Anomaly {
  return {
    kind: 'lost-update',
    message: `${acked.length} increments were acknowledged, but the final read (ok at ${ms(finalRead.completeTime ?? 0)}) found ${final}: at least ${acked.length - final} were lost.`,
    // The writers and the final reader: every op the anomaly names belongs to a listed process.
    processes: [...new Set([...acked.map((w) => w.write.process), finalRead.process])].sort((x, y) => x - y),
    tokens: [],
    window: { start: acked[0]?.write.invokeTime ?? 0, end: finalRead.completeTime ?? finalRead.invokeTime },
    opIndexes: indexesOf(finalRead),
  };
}

function phantom(acked: number, maybe: number, final: number, finalRead: LockOp): Anomaly {
  return {
    kind: 'phantom-update',
    message: `the final read (ok at ${ms(finalRead.completeTime ?? 0)}) found ${final}, more than the ${acked} acknowledged plus ${maybe} indeterminate writes: a write recorded as failed did apply, or something outside the test wrote.`,
    processes: [finalRead.process],
    tokens: [],
    window: { start: 0, end: finalRead.completeTime ?? finalRead.invokeTime },
    opIndexes: indexesOf(finalRead),
  };
}
