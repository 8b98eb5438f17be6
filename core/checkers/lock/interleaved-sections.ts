/**
 * Interleaved critical sections, seen from the resource: a section is a
 * hold's accesses (read, write, mark; holds.ts), and section B interleaves
 * section A when an access b of B happened strictly between two accesses a1
 * and a2 of A in real time: a1 completed before b was invoked, and b
 * completed before a2 was invoked. Then A's later access acted on a state
 * its earlier one did not see (a read-modify-write across another holder's
 * write), whatever the lock believed.
 *
 * Only accesses that completed ok count for a definite interleaving: a
 * rejected access did not happen, and an indeterminate one may never have
 * happened, or happened later than its invocation suggests. Interleavings
 * that need an indeterminate b or a2 are counted (`maybeInterleavings`) but
 * do not decide. One anomaly per ordered pair of sections.
 */
import type { History } from '../../history/op.js';
import { holdsOf, type Hold } from './holds.js';
import { describeToken, indexesOf, type LockOp } from './lock-ops.js';
import { ms, verdict, type Anomaly, type CheckerVerdict, type LockChecker, counterDecidesAlone } from './verdict.js';

const NAME = 'interleaved-sections';

interface Section {
  id: number;
  hold: Hold;
  /** Accesses that completed ok: known to have happened, within their interval. */
  done: LockOp[];
  /** Accesses that were not rejected: ok, info or pending. */
  issued: LockOp[];
}

interface Interleaving {
  a: Section;
  b: Section;
  a1: LockOp;
  between: LockOp;
  a2: LockOp;
}

export const interleavedSectionsChecker: LockChecker = {
  name: NAME,
  decides: (context) => !counterDecidesAlone(context),
  check(history: History): CheckerVerdict {
    const sections = holdsOf(history)
      .holds.map((hold, id): Section => ({
        id,
        hold,
        done: hold.accesses.filter((x) => x.status === 'ok'),
        issued: hold.accesses.filter((x) => x.status !== 'fail'),
      }))
      .filter((s) => s.issued.length > 0);
    const definite = interleavings(sections, true);
    const possible = interleavings(sections, false);
    const stats = { sections: sections.length, interleavings: definite.length, maybeInterleavings: possible.length - definite.length };
    if (definite.length > 0) {
      return verdict(NAME, false, `${definite.length} pair(s) of critical sections interleaved at the resource`, definite.map(describe), stats);
    }
    return verdict(
      NAME,
      true,
      `no two of ${sections.length} critical sections interleaved (${stats.maybeInterleavings} might have, through concurrent or indeterminate accesses)`,
      [],
      stats,
    );
  },
};

/**
 * Interleavings, one per ordered pair of sections. `definite`: a1, b and a2
 * completed ok and b's interval lies between. Otherwise b and a2 may be
 * indeterminate and b only needs to be invoked between a1's completion and
 * a2's invocation (it may have taken effect right then).
 */
function interleavings(sections: readonly Section[], definite: boolean): Interleaving[] {
  const sectionOf = new Map<LockOp, Section>();
  for (const s of sections) for (const x of s.issued) sectionOf.set(x, s);
  const candidates = sections.flatMap((s) => (definite ? s.done : s.issued)).sort((x, y) => x.invokeTime - y.invokeTime);
  const bEnd = (b: LockOp): number => (definite ? (b.completeTime ?? Infinity) : b.invokeTime);
  const found: Interleaving[] = [];
  for (const a of sections) {
    const firsts = a.done;
    const seconds = definite ? a.done : a.issued;
    const spanStart = firsts[0]?.completeTime;
    const spanEnd = seconds[seconds.length - 1]?.invokeTime;
    if (spanStart === undefined || spanEnd === undefined || spanStart >= spanEnd) continue;
    const seen = new Set<number>();
    for (let i = firstInvokedAfter(candidates, spanStart); i < candidates.length && candidates[i]!.invokeTime < spanEnd; i++) {
      const between = candidates[i]!;
      const b = sectionOf.get(between);
      if (b === undefined || b.hold.process === a.hold.process || seen.has(b.id)) continue;
      const a1 = findLast(firsts, (x) => (x.completeTime ?? Infinity) < between.invokeTime);
      const a2 = seconds.find((x) => x.invokeTime > bEnd(between));
      if (a1 === undefined || a2 === undefined) continue;
      seen.add(b.id);
      found.push({ a, b, a1, between, a2 });
    }
  }
  return found;
}

function firstInvokedAfter(sorted: readonly LockOp[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.invokeTime > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function findLast<T>(items: readonly T[], pred: (x: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i]!)) return items[i];
  return undefined;
}

function describeAccess(x: LockOp): string {
  const what = x.f === 'read' ? `read ${JSON.stringify(x.result)}` : `${x.f} of ${JSON.stringify(x.value)}`;
  return `${what} (${ms(x.invokeTime)} to ${ms(x.completeTime ?? Infinity)})`;
}

function describe({ a, b, a1, between, a2 }: Interleaving): Anomaly {
  const pa = `p${a.hold.process}`;
  const pb = `p${b.hold.process}`;
  return {
    kind: 'interleaved-sections',
    message:
      `${pa}'s section (${describeToken(a.hold.token)}) did a ${describeAccess(a1)} and later a ${describeAccess(a2)}; ` +
      `in between, ${pb}'s section (${describeToken(b.hold.token)}) did a ${describeAccess(between)}.`,
    processes: [a.hold.process, b.hold.process],
    tokens: [a.hold.token, b.hold.token].filter((t) => t !== undefined),
    window: { start: a1.invokeTime, end: a2.completeTime ?? a2.invokeTime },
    opIndexes: [...indexesOf(a1), ...indexesOf(between), ...indexesOf(a2)],
  };
}
