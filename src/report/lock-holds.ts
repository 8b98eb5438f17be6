/**
 * Lock holds for the timeline, as the lock checkers define them (`holdsOf`,
 * checkers/lock/holds.ts), so that "two holders at once" on the page is the
 * same overlap the checkers judge: a *definite* hold from an `ok` acquire's
 * completion, a *maybe* hold from an `info` or unanswered acquire's
 * invocation, each ending at the process's release (or next acquire)
 * invocation, at its last op if it retired with `info`, else at the end of
 * the history. Here they are placed on lines for the page.
 */
import { holdsOf, type HoldEnd } from '../../core/checkers/lock/holds.js';
import type { History, Value } from '../../core/history/op.js';
import { lineOfIndex } from './pair-operations.js';

export interface LockHold {
  process: number;
  start: number;
  end: number;
  /** The acquire returned ok; otherwise the client may or may not have held the lock. */
  definite: boolean;
  endedBy: HoldEnd;
  token: Value;
  /** Line of the acquire's completion, or of its invocation for a maybe hold that never completed. */
  acquireLine: number;
  /** Line of the release's invocation, -1 when not ended by a release. */
  releaseLine: number;
}

export function lockHolds(history: History): LockHold[] {
  return holdsOf(history).holds.map((h) => ({
    process: h.process,
    start: h.start,
    end: h.end,
    definite: h.definite,
    endedBy: h.endedBy,
    token: h.token ?? null,
    acquireLine: lineOfIndex(history, h.acquire.completeIndex ?? h.acquire.invokeIndex),
    releaseLine: h.endedBy === 'release' && h.release !== undefined ? lineOfIndex(history, h.release.invokeIndex) : -1,
  }));
}
