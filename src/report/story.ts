/**
 * The story of a failing run in a few lines (pure), for the first view of a
 * shrunk run's report: the anomaly that shows the data broken (a stale write
 * or a lost update before a double hold), who held which token when, who was
 * paused, delayed or cut off while it mattered, and what the resource did
 * with the stale access. The page opens on this anomaly, its timeline
 * zoomed to it, with these lines above it.
 */
import type { History, Op } from '../../core/history/op.js';
import type { StoredResults } from '../../core/run-files/results-json.js';
import type { FaultWindow } from './fault-windows.js';
import type { LockHold } from './lock-holds.js';
import { describeForeignRelease, foreignReleases } from '../../core/checkers/lock/foreign-releases.js';

export interface Story {
  /** Index into the report's anomaly list (every checker's anomalies in order). */
  anomaly: number;
  lines: string[];
}

/** Which anomaly tells the story best: the data's own damage first, then the lock's. */
const STORY_KINDS = ['stale-write', 'lost-update', 'interleaving', 'token-regression', 'not-linearizable', 'double-hold'];

// On the history's own clock, as the checkers' messages and the timeline's axis count it.
const seconds = (ns: number): string => `${(ns / 1e9).toFixed(3)} s`;

/**
 * `planZeroNs`: the history's time at which the main phase began (test.json's `mainStartNs`), the plan's time 0:
 * the story's times are the history's (as the timeline's and the checkers' messages are), so it says how far the
 * plan's clock is from them, where a reader compares them with the plan's windows and the replay's `--script`.
 */
export function storyOf(
  results: StoredResults | null,
  history: History,
  holds: readonly LockHold[],
  faults: readonly FaultWindow[],
  planZeroNs?: number,
): Story | null {
  const all = (results?.checkers ?? []).flatMap((c) => c.anomalies ?? []);
  const rank = (kind: string): number => (STORY_KINDS.includes(kind) ? STORY_KINDS.indexOf(kind) : STORY_KINDS.length);
  // Of the best kind, the narrowest: the pair of holders that lost an update tells more than the counter's shortfall over the whole run.
  const t0 = history[0]?.time ?? 0;
  const width = (i: number): number => {
    const w = all[i]!.window;
    return w ? w.end - w.start : (history.at(-1)?.time ?? t0) - t0;
  };
  let best = -1;
  all.forEach((a, i) => {
    if (best === -1 || rank(a.kind) < rank(all[best]!.kind) || (rank(a.kind) === rank(all[best]!.kind) && width(i) < width(best))) best = i;
  });
  if (best === -1) return null;
  const a = all[best]!;
  const window = a.window ?? { start: t0, end: history.at(-1)?.time ?? t0 };
  const processes = new Set(a.processes ?? []);
  const lines = [`${a.kind}: ${a.message}`];
  if (planZeroNs !== undefined) lines.push(`(times on the history's clock; the plan's 0, from which its windows' "at" count, is at ${seconds(planZeroNs)})`);
  // Holds of the anomaly's processes that overlap its window, in time order.
  // With the moment its lease ran out (grant + lease_ms): the one fact that makes a write after it stale.
  for (const h of holds.filter((x) => processes.has(x.process) && x.end >= window.start && x.start <= window.end).sort((x, y) => x.start - y.start)) {
    const lease = h.definite ? leaseOf(history, h) : undefined;
    const leaseEnd = lease === undefined ? '' : `; its lease of ${lease} ms ran out at ${seconds(h.start + lease * 1e6)}`;
    lines.push(
      `p${h.process} ${h.definite ? 'held' : 'may have held'} the lock${h.token === null ? '' : ` with token ${String(h.token)}`} from ${seconds(h.start)} to ${seconds(h.end)} (${h.endedBy.replace(/-/g, ' ')})${leaseEnd}`,
    );
  }
  // A release that removed another holder's lock, in the window: why a second holder was granted at once.
  for (const f of foreignReleases(history).filter((x) => x.releaseAt <= window.end && x.grantedAt >= window.start))
    lines.push(`${describeForeignRelease(f)} (at ${seconds(f.releaseAt)})`);
  // Faults in force during the window: on these processes, or on a server or link (no process named).
  // The nemesis's own bookkeeping (heal-all and the like: kind `other`) is not a fault on anyone.
  const isFault = (x: FaultWindow): boolean => x.kind !== 'other';
  for (const f of faults.filter(
    (x) =>
      isFault(x) &&
      x.start <= window.end &&
      (x.end ?? Infinity) >= window.start - 5e9 &&
      (x.processes.length === 0 || x.processes.some((p) => processes.has(p))),
  )) {
    const who = f.processes.length > 0 ? f.processes.map((p) => `p${p}`).join(', ') : (f.target ?? 'the cluster');
    lines.push(`${f.kind} (${f.label}) on ${who} from ${seconds(f.start)}${f.end === null ? ' to the end' : ` to ${seconds(f.end)}`}`);
  }
  // What the resource did with the accesses the anomaly names.
  for (const op of (a.opIndexes ?? [])
    .map((i) => history.find((o) => o.index === i))
    .filter((o): o is Op => o !== undefined && o.type !== 'invoke' && (o.f === 'write' || o.f === 'mark'))) {
    const outcome = typeof op['outcome'] === 'string' ? op['outcome'] : op.type;
    lines.push(
      `p${op.process}'s ${op.f} of ${JSON.stringify(op.value)}${op['token'] !== undefined ? ` under token ${String(op['token'])}` : ''} at ${seconds(op.time)}: ${outcome} by the resource`,
    );
  }
  return { anomaly: best, lines };
}

/** The lease (ms) the grant that began hold `h` came with, when its acquire recorded one. */
function leaseOf(history: History, h: LockHold): number | undefined {
  const grant = history.find((o) => o.process === h.process && o.f === 'acquire' && o.type === 'ok' && o.time === h.start);
  const lease = grant?.['lease_ms'];
  return typeof lease === 'number' ? lease : undefined;
}
