/**
 * Holds: when each client believed (or may have believed) it held the lock,
 * and the resource accesses it made meanwhile (its critical section).
 *
 * A hold starts at an acquire. An `ok` acquire is a *definite* hold from its
 * completion, the instant the client learnt it holds the lock. An `info` or
 * never-completed acquire is a *maybe* hold from its invocation: the grant
 * may have happened at any instant after it, or never.
 *
 * A hold ends at the invocation of the process's release (from then on the
 * client is letting go, whatever the release returns), or of its next
 * acquire. A process that never releases ends its hold at its last event:
 * if that op completed `info`, the process retired there (rule 4 of
 * docs/history.md: it never acts again, its worker goes on under a new id),
 * so nothing can be done under its hold afterwards; otherwise it was still
 * running when the history ended, and the hold lasts to the end. Why not
 * always to the end: a holder whose write timed out would then overlap every
 * later holder, and every run with a timeout would look like a double hold.
 */
import type { History } from '../../history/op.js';
import { ACCESS_FS, historyEnd, lockOps, type LockOp, type Token } from './lock-ops.js';

export type HoldEnd = 'release' | 'next-acquire' | 'retired' | 'end-of-history';

export interface Hold {
  process: number;
  acquire: LockOp;
  /** The acquire completed ok: the client was told it holds the lock. */
  definite: boolean;
  /** ns: the ok acquire's completion, or a maybe-hold's invocation. */
  start: number;
  /** ns; see the module comment. */
  end: number;
  endedBy: HoldEnd;
  release: LockOp | undefined;
  token: Token | undefined;
  /** The section: reads, writes and marks between the acquire and the end, any status. */
  accesses: LockOp[];
}

export interface Holds {
  holds: Hold[];
  /** Every client op, in invocation order. */
  ops: LockOp[];
  /** The last time in the history (ns). */
  end: number;
  /** Accesses made outside any hold (a client bug, or a history cut at the start). */
  orphanAccesses: number;
}

export function holdsOf(history: History): Holds {
  const ops = lockOps(history);
  const end = historyEnd(history);
  const byProcess = new Map<number, LockOp[]>();
  for (const op of ops) {
    const list = byProcess.get(op.process);
    if (list === undefined) byProcess.set(op.process, [op]);
    else list.push(op);
  }
  const holds: Hold[] = [];
  let orphanAccesses = 0;
  for (const [process, list] of byProcess) {
    let open: Hold | undefined;
    const close = (at: number, by: HoldEnd): void => {
      if (open === undefined) return;
      open.end = Math.max(open.start, at);
      open.endedBy = by;
      holds.push(open);
      open = undefined;
    };
    // A hold ends when the client actually begins its release (startTime): a release that waited in a
    // paused client's pipe leaves the client believing it holds the lock all that time.
    for (const op of list) {
      if (op.f === 'acquire') {
        close(op.startTime, 'next-acquire');
        if (op.status !== 'fail') open = startHold(process, op);
      } else if (op.f === 'release') {
        if (open !== undefined) open.release = op;
        close(op.startTime, 'release');
      } else if (ACCESS_FS.includes(op.f)) {
        if (open === undefined) orphanAccesses++;
        else open.accesses.push(op);
      }
    }
    const last = list[list.length - 1];
    if (last?.status === 'info') close(last.completeTime ?? end, 'retired');
    else close(end, 'end-of-history');
  }
  holds.sort((a, b) => a.start - b.start || a.acquire.invokeIndex - b.acquire.invokeIndex);
  return { holds, ops, end, orphanAccesses };
}

function startHold(process: number, acquire: LockOp): Hold {
  const definite = acquire.status === 'ok';
  return {
    process,
    acquire,
    definite,
    start: definite ? (acquire.completeTime ?? acquire.invokeTime) : acquire.invokeTime,
    end: Infinity,
    endedBy: 'end-of-history',
    release: undefined,
    token: acquire.token,
    accesses: [],
  };
}
