/**
 * A critical section records exactly the ops of the contract
 * (docs/lock-workloads.md), in order, with tokens and outcomes, against a
 * scripted fake client: no cluster, no real time.
 */
import { describe, expect, it } from 'vitest';
import type { ClientAnswer } from '../../core/client-protocol.js';
import { realClock } from '../../runtime/runner/clock.js';
import type { LockSession, RequestBody } from '../../runtime/runner/ports.js';
import { runCriticalSection, VERSION_RETRIES, type SectionContext } from '../../runtime/runner/critical-section.js';
import { Holders } from '../../runtime/runner/holders.js';
import { Recorder } from '../../runtime/runner/recorder.js';

/** A client that answers each request from a script, keyed by op. */
function fakeSession(script: Partial<Record<RequestBody['op'], Omit<ClientAnswer, 'id'>>>, seen: RequestBody[]): LockSession {
  const nothing = async (): Promise<void> => undefined;
  return {
    name: 'client1-1',
    alive: true,
    host: 'c1',
    pid: 1,
    ready: Promise.resolve({ ready: true, protocol: 1, token: 'monotonic', versions: {} }),
    call: async (body: RequestBody) => {
      seen.push(body);
      return { id: 0, ...(script[body.op] ?? { type: 'ok' }) };
    },
    pause: nothing,
    resume: nothing,
    kill: nothing,
    close: () => undefined,
  };
}

function context(workload: SectionContext['workload'], resource: SectionContext['resource'] = 'none'): SectionContext {
  return { recorder: new Recorder(undefined), holders: new Holders(realClock), workload, resource, ttlMs: 1000, giveUpMs: 1000, sleep: async () => undefined };
}

const summary = (ctx: SectionContext) =>
  ctx.recorder.ops.map((o) => `${o.type} ${o.f} ${JSON.stringify(o.value)}${o.token !== undefined ? ` t${o.token}` : ''}${o.outcome ? ` ${o.outcome}` : ''}`);

describe('runCriticalSection', () => {
  it('lock-counter: acquire, read, write read + 1, release, all under the token', async () => {
    const ctx = context('lock-counter', 'fence');
    const seen: RequestBody[] = [];
    const session = fakeSession(
      { acquire: { type: 'ok', token: 7 }, read: { type: 'ok', value: '41', outcome: 'accepted' }, write: { type: 'ok', outcome: 'accepted', fence: 7 } },
      seen,
    );
    expect(await runCriticalSection(ctx, session, { worker: 0, process: 0, holdMs: 10, value: null })).toBe('done');
    expect(seen.map((b) => b.op)).toEqual(['acquire', 'read', 'write', 'release']);
    expect(summary(ctx)).toEqual([
      'invoke acquire null',
      'ok acquire null t7',
      'invoke read null t7',
      'ok read "41" t7 accepted',
      'invoke write 42 t7',
      'ok write 42 t7 accepted',
      'invoke release null t7',
      'ok release null t7',
    ]);
  });

  it('cas-unique marks the resource first', async () => {
    const ctx = context('fenced-write', 'cas-unique');
    const seen: RequestBody[] = [];
    await runCriticalSection(ctx, fakeSession({ acquire: { type: 'ok', token: 'a1b2' } }, seen), { worker: 0, process: 3, holdMs: 0, value: 'p0-0' });
    expect(seen.map((b) => b.op)).toEqual(['acquire', 'mark', 'write', 'release']);
    expect(ctx.recorder.ops.every((o) => o.process === 3)).toBe(true);
  });

  it('a failed acquire ends the section; a rejected read skips the write but releases', async () => {
    const failed = context('lock-counter');
    expect(
      await runCriticalSection(failed, fakeSession({ acquire: { type: 'fail', error: 'held' } }, []), { worker: 0, process: 0, holdMs: 0, value: null }),
    ).toBe('done');
    expect(failed.recorder.ops.map((o) => o.f)).toEqual(['acquire', 'acquire']);

    const rejected = context('lock-counter', 'fence-claim');
    const seen: RequestBody[] = [];
    await runCriticalSection(rejected, fakeSession({ acquire: { type: 'ok', token: 3 }, read: { type: 'fail', error: 'fenced', outcome: 'rejected' } }, seen), {
      worker: 0,
      process: 0,
      holdMs: 0,
      value: null,
    });
    expect(seen.map((b) => b.op)).toEqual(['acquire', 'read', 'release']);
  });

  it('an indeterminate op retires the process and leaves no holder behind', async () => {
    const ctx = context('fenced-write');
    const outcome = await runCriticalSection(ctx, fakeSession({ acquire: { type: 'ok', token: 1 }, write: { type: 'info', error: 'timeout' } }, []), {
      worker: 2,
      process: 2,
      holdMs: 0,
      value: 'p2-0',
    });
    expect(outcome).toBe('retire');
    expect(ctx.holders.all()).toEqual([]);
    expect(ctx.recorder.ops.at(-1)).toMatchObject({ type: 'info', f: 'write', outcome: 'unknown', error: 'timeout' });
  });

  it('without a lock: no acquire, no release, and the client in the section is the holder faults aim at', async () => {
    const ctx = { ...context('lock-counter', 'for-update'), lockless: true };
    const seen: RequestBody[] = [];
    let holderDuringRead: number | undefined;
    const session = fakeSession({ read: { type: 'ok', value: '4', outcome: 'accepted' }, write: { type: 'ok', outcome: 'accepted' } }, seen);
    const call = session.call;
    session.call = async (body, giveUp) => {
      if (body.op === 'read') holderDuringRead = ctx.holders.all()[0]?.worker;
      return call(body, giveUp);
    };
    expect(await runCriticalSection(ctx, session, { worker: 1, process: 1, holdMs: 0, value: null })).toBe('done');
    expect(seen).toEqual([{ op: 'read' }, { op: 'write', value: 5 }]);
    expect(holderDuringRead).toBe(1);
    expect(ctx.holders.all()).toEqual([]);
  });

  it("version: a write refused for a version conflict retries the read-hold-write, counted as the read's attempt, with the version read", async () => {
    const ctx = { ...context('lock-counter', 'version'), lockless: true };
    const seen: RequestBody[] = [];
    const answers: Omit<ClientAnswer, 'id'>[] = [
      { type: 'ok', value: 0, version: 0, outcome: 'accepted' },
      { type: 'fail', error: 'version-changed', outcome: 'rejected' },
      { type: 'ok', value: 1, version: 1, outcome: 'accepted' },
      { type: 'ok', outcome: 'accepted', version: 2 },
    ];
    const session = fakeSession({}, seen);
    session.call = async (body) => {
      seen.push(body);
      return { id: 0, ...answers.shift()! };
    };
    expect(await runCriticalSection(ctx, session, { worker: 0, process: 0, holdMs: 0, value: null })).toBe('done');
    expect(seen).toEqual([{ op: 'read' }, { op: 'write', value: 1, readVersion: 0 }, { op: 'read' }, { op: 'write', value: 2, readVersion: 1 }]);
    expect(ctx.recorder.ops.filter((o) => o.f === 'read').map((o) => o['attempt'])).toEqual([undefined, undefined, 2, 2]);
  });

  it('version: the retries are bounded, so a section always ends', async () => {
    const ctx = { ...context('lock-counter', 'version'), lockless: true };
    const seen: RequestBody[] = [];
    const session = fakeSession(
      { read: { type: 'ok', value: 0, version: 0, outcome: 'accepted' }, write: { type: 'fail', error: 'version-changed', outcome: 'rejected' } },
      seen,
    );
    expect(await runCriticalSection(ctx, session, { worker: 0, process: 0, holdMs: 0, value: null })).toBe('done');
    expect(seen.filter((b) => b.op === 'write')).toHaveLength(VERSION_RETRIES + 1);
  });

  it('fenced-write reads first in the database modes: the version to compare, the row to lock', async () => {
    const ctx = context('fenced-write', 'for-update');
    const seen: RequestBody[] = [];
    await runCriticalSection(ctx, fakeSession({ acquire: { type: 'ok', token: 1 }, read: { type: 'ok', value: '', outcome: 'accepted' } }, seen), {
      worker: 0,
      process: 0,
      holdMs: 0,
      value: 'p0-0',
    });
    expect(seen.map((b) => b.op)).toEqual(['acquire', 'read', 'write', 'release']);
    expect(seen[2]).toEqual({ op: 'write', value: 'p0-0' });
  });
});
