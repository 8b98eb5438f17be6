/**
 * One critical section of a lock workload, op by op, each recorded as an
 * invoke and its completion:
 *
 *   mutex         acquire, hold, release
 *   lock-counter  acquire, [mark], read, hold, write(read + 1), release
 *   fenced-write  acquire, [mark], hold, write(unique value), release
 *
 * (`mark` only in the cas-unique modes.) A failed acquire ends the section; a
 * rejected access skips the rest but still releases. Any `info` ends it with
 * `retire`: the process's state is unknown, so (as Jepsen does) its worker
 * continues as a fresh process with a fresh client.
 */
import type { LockWorkload } from '../../checkers/lock/verdict.js';
import type { Value } from '../../src/history/op.js';
import type { ClientAnswer } from '../clients/protocol.js';
import type { LockSession, RequestBody } from './ports.js';
import type { Holders } from './holders.js';
import type { Recorder } from './recorder.js';
import type { ResourceMode } from '../vocabulary.js';

export interface SectionContext {
  recorder: Recorder;
  holders: Holders;
  workload: LockWorkload;
  resource: ResourceMode;
  ttlMs: number;
  /** How long to wait for a client's answer before calling the op indeterminate. */
  giveUpMs: number;
  sleep: (ms: number) => Promise<void>;
}

export interface SectionPlan {
  worker: number;
  process: number;
  holdMs: number;
  /** fenced-write's unique value. */
  value: string | null;
}

export type SectionOutcome = 'done' | 'retire';

export async function runCriticalSection(ctx: SectionContext, session: LockSession, plan: SectionPlan): Promise<SectionOutcome> {
  const op = (f: RequestBody['op'], body: RequestBody, value: Value, token?: number | string) => perform(ctx, session, plan.process, f, body, value, token);

  ctx.holders.startAcquire(plan.worker, session, plan.process);
  const acquired = await op('acquire', { op: 'acquire', ttlMs: ctx.ttlMs }, null);
  ctx.holders.endAcquire(plan.worker);
  if (acquired.type === 'info') return 'retire';
  if (acquired.type === 'fail') return 'done';
  const token = acquired.token;
  ctx.holders.set({ worker: plan.worker, process: plan.process, session, stage: 'acquired', token, since: ctx.recorder.now(), leaseMs: acquired.lease_ms ?? ctx.ttlMs });

  const body = async (): Promise<SectionOutcome | 'rejected'> => {
    if (ctx.resource === 'cas-unique' || ctx.resource === 'cas-unique-nonatomic') {
      ctx.holders.stage(plan.worker, 'marking');
      const marked = await op('mark', { op: 'mark' }, token ?? null, token);
      if (marked.type !== 'ok') return marked.type === 'info' ? 'retire' : 'rejected';
    }
    let next: Value = plan.value;
    if (ctx.workload === 'lock-counter') {
      const read = await op('read', { op: 'read' }, null, token);
      if (read.type !== 'ok') return read.type === 'info' ? 'retire' : 'rejected';
      next = counterValue(read.value) + 1;
    }
    ctx.holders.stage(plan.worker, 'hold');
    await ctx.sleep(plan.holdMs);
    if (ctx.workload === 'mutex') return 'done';
    ctx.holders.stage(plan.worker, 'writing');
    const written = await op('write', { op: 'write', value: next }, next, token);
    return written.type === 'info' ? 'retire' : 'done';
  };
  const outcome = await body();
  ctx.holders.delete(plan.worker);
  if (outcome === 'retire') return 'retire';
  const released = await op('release', { op: 'release' }, null, token);
  return released.type === 'info' ? 'retire' : 'done';
}

/** Invoke, wait, complete: the two history entries of one client op. */
async function perform(ctx: SectionContext, session: LockSession, process: number, f: RequestBody['op'], body: RequestBody, value: Value, token?: number | string): Promise<ClientAnswer> {
  ctx.recorder.record(process, 'invoke', f, value, { token });
  const a = await session.call(body, ctx.giveUpMs);
  ctx.recorder.record(process, a.type, f, a.value ?? (f === 'write' || f === 'mark' ? value : null), {
    token: a.token ?? token,
    outcome: a.outcome ?? (f === 'read' || f === 'write' || f === 'mark' ? outcomeOf(a.type) : undefined),
    fence: a.fence,
    lease_ms: a.lease_ms,
    validity_ms: a.validity_ms,
    error: a.error,
    // When the client actually began the op (it may have sat in a paused client's pipe since the invoke).
    started: a.started_ns === undefined ? undefined : ctx.recorder.fromClockReading(a.started_ns),
  });
  return a;
}

function outcomeOf(type: ClientAnswer['type']): 'accepted' | 'rejected' | 'unknown' {
  return type === 'ok' ? 'accepted' : type === 'fail' ? 'rejected' : 'unknown';
}

/** The counter as the resource stores it (decimal text); an empty row counts as 0. */
export function counterValue(v: Value | undefined): number {
  const n = typeof v === 'number' ? v : Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
}
