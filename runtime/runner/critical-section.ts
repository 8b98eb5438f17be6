/**
 * One critical section of a lock workload, op by op, each recorded as an
 * invoke and its completion:
 *
 *   mutex         acquire, hold, release
 *   lock-counter  acquire, [mark], read, hold, write(read + 1), release
 *   fenced-write  acquire, [mark], [read], hold, write(unique value), release
 *   jobs          acquire, [mark], read (the stream's position n), hold (do job n + 1), write(n + 1: job done), release
 *
 * (`mark` only in the cas-unique modes; fenced-write reads only in the
 * version and for-update modes, for the version to compare and the row to
 * lock.) Without a lock (`lockless`) there is no acquire and no release. In
 * the version mode a write refused for a version conflict retries the
 * read-hold-write, up to VERSION_RETRIES times. A failed acquire ends the section; a
 * rejected access skips the rest but still releases. Any `info` ends it with
 * `retire`: the process's state is unknown, so (as Jepsen does) its worker
 * continues as a fresh process with a fresh client.
 */
import type { LockWorkload } from '../../core/checkers/lock/verdict.js';
import type { Value } from '../../core/history/op.js';
import type { ClientAnswer } from '../../core/client-protocol.js';
import type { LockSession, RequestBody } from './ports.js';
import type { Holders } from './holders.js';
import type { Extra, Recorder } from './recorder.js';
import { DB_CONTROL_MODES, type ResourceMode } from '../../core/vocabulary.js';
import { workloadOf } from '../../core/workloads/registry.js';

export interface SectionContext {
  recorder: Recorder;
  holders: Holders;
  workload: LockWorkload;
  resource: ResourceMode;
  ttlMs: number;
  /** How long to wait for a client's answer before calling the op indeterminate. */
  giveUpMs: number;
  sleep: (ms: number) => Promise<void>;
  /** No lock service (`--backend none`): no acquire and no release, each section straight to the resource. */
  lockless?: boolean;
}

export interface SectionPlan {
  worker: number;
  process: number;
  holdMs: number;
  /** fenced-write's unique value. */
  value: string | null;
}

export type SectionOutcome = 'done' | 'retire';

/**
 * How often a version-mode section tries again after its write was refused
 * (the row moved on since its read), before it gives up: bounded, so a
 * section always ends; each retry is its read's `attempt` in the history.
 */
export const VERSION_RETRIES = 5;

type Perform = (f: RequestBody['op'], body: RequestBody, value: Value, token?: number | string, extra?: Extra) => Promise<ClientAnswer>;

export async function runCriticalSection(ctx: SectionContext, session: LockSession, plan: SectionPlan): Promise<SectionOutcome> {
  const op: Perform = (f, body, value, token, extra) => perform(ctx, session, plan.process, f, body, value, token, extra);
  let token: number | string | undefined;
  let leaseMs = ctx.ttlMs;
  if (!ctx.lockless) {
    ctx.holders.startAcquire(plan.worker, session, plan.process);
    const acquired = await op('acquire', { op: 'acquire', ttlMs: ctx.ttlMs }, null);
    ctx.holders.endAcquire(plan.worker);
    if (acquired.type === 'info') return 'retire';
    if (acquired.type === 'fail') return 'done';
    token = acquired.token;
    leaseMs = acquired.lease_ms ?? ctx.ttlMs;
  }
  // Without a lock, the client inside a section is "the holder" the faults aim at.
  ctx.holders.set({ worker: plan.worker, process: plan.process, session, stage: 'acquired', token, since: ctx.recorder.now(), leaseMs });
  const outcome = await sectionBody(ctx, op, plan, token);
  ctx.holders.delete(plan.worker);
  if (outcome === 'retire') return 'retire';
  if (ctx.lockless) return 'done';
  const released = await op('release', { op: 'release' }, null, token);
  return released.type === 'info' ? 'retire' : 'done';
}

/** The section's accesses: [mark], then the read-hold-write attempt, again while version conflicts refuse it. */
async function sectionBody(ctx: SectionContext, op: Perform, plan: SectionPlan, token: number | string | undefined): Promise<SectionOutcome> {
  if (ctx.resource === 'cas-unique' || ctx.resource === 'cas-unique-nonatomic') {
    ctx.holders.stage(plan.worker, 'marking');
    const marked = await op('mark', { op: 'mark' }, token ?? null, token);
    if (marked.type !== 'ok') return marked.type === 'info' ? 'retire' : 'done';
  }
  for (let attempt = 1; ; attempt++) {
    const r = await attemptBody(ctx, op, plan, token, attempt);
    if (r !== 'conflict') return r;
    if (attempt > VERSION_RETRIES) return 'done';
  }
}

async function attemptBody(
  ctx: SectionContext,
  op: Perform,
  plan: SectionPlan,
  token: number | string | undefined,
  attempt: number,
): Promise<SectionOutcome | 'conflict'> {
  let next: Value = plan.value;
  let readVersion: number | undefined;
  // The database's own control reads first in every data workload: the version to compare, the row to lock.
  const workload = workloadOf(ctx.workload);
  if (workload.counter || (workload.accessesResource && DB_CONTROL_MODES.includes(ctx.resource))) {
    const read = await op('read', { op: 'read' }, null, token, attempt > 1 ? { attempt } : undefined);
    if (read.type !== 'ok') return read.type === 'info' ? 'retire' : 'done';
    if (workload.counter) next = counterValue(read.value) + 1;
    readVersion = read.version;
  }
  ctx.holders.stage(plan.worker, 'hold');
  await ctx.sleep(plan.holdMs);
  if (!workload.accessesResource) return 'done';
  ctx.holders.stage(plan.worker, 'writing');
  // A workload whose writes record something (a job's done record) says so on the op: the history then tells it from lock-counter.
  const recorded = workload.writeField !== undefined ? { [workload.writeField]: next } : undefined;
  const written = await op('write', { op: 'write', value: next, ...(readVersion !== undefined ? { readVersion } : {}) }, next, token, recorded);
  if (written.type === 'info') return 'retire';
  return written.type === 'fail' && written.error === 'version-changed' ? 'conflict' : 'done';
}

/** Invoke, wait, complete: the two history entries of one client op. */
async function perform(
  ctx: SectionContext,
  session: LockSession,
  process: number,
  f: RequestBody['op'],
  body: RequestBody,
  value: Value,
  token?: number | string,
  extra: Extra = {},
): Promise<ClientAnswer> {
  ctx.recorder.record(process, 'invoke', f, value, { token, ...extra });
  const a = await session.call(body, ctx.giveUpMs);
  ctx.recorder.record(process, a.type, f, a.value ?? (f === 'write' || f === 'mark' ? value : null), {
    token: a.token ?? token,
    outcome: a.outcome ?? (f === 'read' || f === 'write' || f === 'mark' ? outcomeOf(a.type) : undefined),
    fence: a.fence,
    version: a.version,
    ...extra,
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
