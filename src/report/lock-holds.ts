/**
 * Lock holds as the clients saw them (docs/lock-workloads.md): a hold starts
 * when an `acquire` returns `ok`, the moment the client starts believing it
 * holds the lock, and ends when the same process invokes `release`, the moment
 * it stops relying on it. Whether the release then succeeds does not move the
 * end: a failed release means the lock had already been lost, which is exactly
 * what the timeline should let a reader see against the other lanes.
 *
 * A hold with no release (the process crashed, got `info`, or the run ended)
 * stays `open` and is drawn to the last moment the process was seen. An
 * `acquire` that ended in `info` may or may not hold the lock; it starts no
 * hold, since its process never issues another op that could rely on it.
 */
import type { History, Value } from '../history/op.js';
import type { OpPair } from './pair-operations.js';

export interface LockHold {
  process: number;
  /** Time (ns) the acquire returned ok. */
  start: number;
  /** Time (ns) the release was invoked, or the last time the process was seen when `open`. */
  end: number;
  open: boolean;
  token: Value;
  /** Line of the acquire's completion. */
  acquireLine: number;
  /** Line of the release's invocation, -1 when open. */
  releaseLine: number;
}

export function lockHolds(history: History, pairs: readonly OpPair[]): LockHold[] {
  const holds: LockHold[] = [];
  const current = new Map<number, LockHold>();
  const lastSeen = new Map<number, number>();
  for (const pair of pairs) {
    const inv = history[pair.inv]!;
    const done = pair.done === -1 ? undefined : history[pair.done]!;
    lastSeen.set(pair.process, Math.max(lastSeen.get(pair.process) ?? 0, done?.time ?? inv.time));
    const held = current.get(pair.process);
    if (inv.f === 'release' && held !== undefined) {
      held.end = inv.time;
      held.open = false;
      held.releaseLine = pair.inv;
      current.delete(pair.process);
    } else if (inv.f === 'acquire' && done?.type === 'ok') {
      // Acquiring again without a release: the earlier hold was never given back; draw it up to here.
      if (held !== undefined) held.end = inv.time;
      const hold: LockHold = { process: pair.process, start: done.time, end: done.time, open: true, token: done.token ?? null, acquireLine: pair.done, releaseLine: -1 };
      holds.push(hold);
      current.set(pair.process, hold);
    }
  }
  for (const [process, hold] of current) hold.end = Math.max(hold.start, lastSeen.get(process) ?? hold.start);
  return holds;
}
