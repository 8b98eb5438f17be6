/**
 * A lock-run history as the lock checkers read it: each client invocation
 * paired with its completion (docs/lock-workloads.md).
 *
 * Unlike the linearizability checker's operations, a `LockOp` keeps every
 * completion, `fail` included, because a rejected write is data here (the
 * fence said no), and it keeps the extra fields the contract puts on the
 * completion: the fencing `token` and the resource's `outcome`. The nemesis
 * is skipped. Times stay in the history's nanoseconds; an op that never
 * completed has no completion time, because it may take effect at any time
 * after its invocation.
 */
import type { History, Op, Value } from '../../history/op.js';

export type LockOpStatus = 'ok' | 'fail' | 'info' | 'pending';
export type Token = number | string;
export type AccessOutcome = 'accepted' | 'rejected' | 'unknown';

/** The resource accesses of the contract; everything a section does between acquire and release. */
export const ACCESS_FS: readonly string[] = ['read', 'write', 'mark'];

export interface LockOp {
  process: number;
  f: string;
  status: LockOpStatus;
  /** The invocation's value (what to write). */
  value: Value;
  /** The completion's value (what a read returned); null unless ok. */
  result: Value;
  invokeTime: number;
  /**
   * The earliest instant the op can have taken effect: its invocation, or
   * later when the completion says when the client actually began it
   * (`started`: a request that waited in a paused client's pipe).
   */
  startTime: number;
  /** Undefined while the op is pending. */
  completeTime: number | undefined;
  invokeIndex: number;
  completeIndex: number | undefined;
  /** The completion's token, else the invocation's. */
  token: Token | undefined;
  outcome: AccessOutcome | undefined;
}

/** Client ops in invocation order, each with its completion. */
export function lockOps(history: History): LockOp[] {
  const ops: LockOp[] = [];
  const open = new Map<number, LockOp>();
  for (const h of history) {
    if (h.process === 'nemesis') continue;
    if (h.type === 'invoke') {
      const op: LockOp = {
        process: h.process,
        f: h.f,
        status: 'pending',
        value: h.value,
        result: null,
        invokeTime: h.time,
        startTime: h.time,
        completeTime: undefined,
        invokeIndex: h.index,
        completeIndex: undefined,
        token: tokenOf(h),
        outcome: outcomeOf(h),
      };
      ops.push(op);
      open.set(h.process, op);
      continue;
    }
    const op = open.get(h.process);
    // A completion with no invocation is malformed; validateHistory rejects it. Skip defensively.
    if (op === undefined) continue;
    open.delete(h.process);
    op.status = h.type;
    op.completeTime = h.time;
    op.completeIndex = h.index;
    const started = h['started'];
    if (typeof started === 'number' && started > op.startTime && started <= h.time) op.startTime = started;
    if (h.type === 'ok') op.result = h.value;
    op.token = tokenOf(h) ?? op.token;
    op.outcome = outcomeOf(h) ?? op.outcome;
  }
  return ops;
}

/** The last time in the history: where an interval that never closed is cut for display. */
export function historyEnd(history: History): number {
  let end = 0;
  for (const h of history) if (h.time > end) end = h.time;
  return end;
}

/** History indexes of an op's invocation and completion. */
export function indexesOf(op: LockOp): number[] {
  return op.completeIndex === undefined ? [op.invokeIndex] : [op.invokeIndex, op.completeIndex];
}

function tokenOf(op: Op): Token | undefined {
  const t = op.token;
  return typeof t === 'number' || typeof t === 'string' ? t : undefined;
}

function outcomeOf(op: Op): AccessOutcome | undefined {
  const o = op.outcome;
  return o === 'accepted' || o === 'rejected' || o === 'unknown' ? o : undefined;
}

/**
 * Order two monotonic tokens: numbers, or integers written as strings (an
 * etcd revision past 2^53 is recorded as a string) compared exactly.
 * Undefined when they cannot be compared (Redlock's random strings).
 */
export function compareTokens(a: Token, b: Token): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = asBigInt(a);
  const y = asBigInt(b);
  if (x === undefined || y === undefined) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A key equal for exactly the tokens compareTokens calls equal (`6` and `"6"`); undefined for a token it cannot order. */
export function tokenKey(t: Token): string | undefined {
  const b = asBigInt(t);
  return b !== undefined ? b.toString() : typeof t === 'number' ? String(t) : undefined;
}

function asBigInt(t: Token): bigint | undefined {
  if (typeof t === 'number') return Number.isInteger(t) ? BigInt(t) : undefined;
  return /^-?\d+$/.test(t) ? BigInt(t) : undefined;
}

/** `token 17`, `token "a1f3"`, or `no token`: tokens as messages name them. */
export function describeToken(t: Token | undefined): string {
  if (t === undefined) return 'no token';
  return typeof t === 'number' ? `token ${t}` : `token ${JSON.stringify(t)}`;
}
