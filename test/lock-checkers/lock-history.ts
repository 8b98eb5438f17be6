/**
 * Hand-written lock-run histories for the checker tests, in the contract's
 * shape (docs/lock-workloads.md) and close to how history.jsonl reads:
 * `call(process, f, invokeMs, completeMs, type, fields)` is one op, its
 * invocation and completion; `lockHistory(...calls)` merges them in time
 * order (stable, so a process's own events keep their order), numbers them
 * and turns ms into the history's nanoseconds.
 */
import type { History, OpType, Process, Value } from '../../core/history/op.js';
import type { LockContext } from '../../core/checkers/lock/verdict.js';

/** One event: [ms since start, process, type, f, value, extra fields]. */
export type Ev = [ms: number, process: Process, type: OpType, f: string, value: Value, extra: Record<string, Value>];

export interface CallFields {
  /** The invocation's value (what to write). */
  value?: Value;
  /** The completion's value (what a read returned). */
  result?: Value;
  token?: number | string;
  outcome?: 'accepted' | 'rejected' | 'unknown';
  /** When the client began the op (the completion's `started`), ms. */
  startedMs?: number;
  /** The completion's error code (`version-changed`, `statement-timeout`, ...). */
  error?: string;
  /** A version conflict's retry: the section's attempt, on the invocation and the completion. */
  attempt?: number;
  /** A grant's validity as a Redlock client reports it (`validity_ms`). */
  validityMs?: number;
}

/** One op; `completeMs` null leaves it pending (never answered). */
export function call(
  process: number,
  f: string,
  invokeMs: number,
  completeMs: number | null,
  type: Exclude<OpType, 'invoke'> = 'ok',
  fields: CallFields = {},
): Ev[] {
  const extra: Record<string, Value> = {};
  if (fields.token !== undefined) extra.token = fields.token;
  if (fields.outcome !== undefined) extra.outcome = fields.outcome;
  if (fields.startedMs !== undefined) extra.started = ns(fields.startedMs);
  if (fields.error !== undefined) extra.error = fields.error;
  if (fields.attempt !== undefined) extra.attempt = fields.attempt;
  if (fields.validityMs !== undefined) extra.validity_ms = fields.validityMs;
  const invoke: Ev = [invokeMs, process, 'invoke', f, fields.value ?? null, fields.attempt !== undefined ? { attempt: fields.attempt } : {}];
  return completeMs === null ? [invoke] : [invoke, [completeMs, process, type, f, type === 'ok' ? (fields.result ?? null) : null, extra]];
}

/** A nemesis event (the checkers must ignore it). */
export function nemesis(ms: number, f: string, value: Value = null): Ev[] {
  return [[ms, 'nemesis', 'info', f, value, {}]];
}

export function lockHistory(...calls: Ev[][]): History {
  const events = calls.flat().map((e, order) => ({ e, order }));
  events.sort((a, b) => a.e[0] - b.e[0] || a.order - b.order);
  return events.map(({ e: [ms, process, type, f, value, extra] }, index) => ({ index, time: ms * 1e6, process, type, f, value, ...extra }));
}

/** A whole section: acquire (ok at acquiredMs, invoked 1 ms before), the given accesses, release at releaseMs. */
export function section(process: number, token: number | string, acquiredMs: number, releaseMs: number, ...accesses: Ev[][]): Ev[] {
  return [
    ...call(process, 'acquire', acquiredMs - 1, acquiredMs, 'ok', { token }),
    ...accesses.flat(),
    ...call(process, 'release', releaseMs, releaseMs + 1, 'ok', { token }),
  ];
}

export function context(overrides: Partial<LockContext> = {}): LockContext {
  return { workload: 'fenced-write', resource: 'fence', backend: 'etcd', tokenKind: 'monotonic', ...overrides };
}

/** ms to the history's ns, for exact window assertions. */
export const ns = (ms: number): number => ms * 1e6;
