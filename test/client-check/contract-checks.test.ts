/**
 * The client contract checks on a simulated world, no servers: a lease lock
 * in memory on a virtual clock, the resource row behind the simulation's
 * PostgreSQL (the one simulated executor of the real statements), and clients that run the real
 * runStatements with their token bound. An honest client of each token kind
 * passes; each lie fails the check that names it.
 */
import { describe, expect, it } from 'vitest';
import type { ClientAnswer, ClientTokenKind } from '../../core/client-protocol.js';
import type { Db, Row } from '../../runtime/clients/resource-modes.js';
import { SimPgServer } from '../sim/sim-db.js';
import { SimNode } from '../sim/sim-node.js';
import { SimTruth } from '../sim/sim-truth.js';
import { VirtualClock } from '../sim/virtual-clock.js';
import { Resource } from '../../runtime/clients/resource.js';
import { wireRequest } from '../../runtime/runner/client-session.js';
import {
  runContractChecks,
  tokenFits,
  tokenFollows,
  type CheckClient,
  type CheckResult,
  type CheckWorld,
  type ResourceRow,
} from '../../runtime/client-check/contract-checks.js';

type Lie = 'none' | 'fake-acquire' | 'reuse-token' | 'fake-monotonic' | 'binds-another-token' | 'ignores-statements';

/**
 * The row behind the simulation's PostgreSQL (test/sim/sim-db.ts), the one place the tests execute the
 * resource modes' statements, reached directly: the checks need its answers, not its network.
 */
class RowDb implements Db {
  private readonly server = new SimPgServer(new SimNode('pg1', new VirtualClock()), '', new SimTruth(), false);
  get row(): ResourceRow {
    const { data, fence, mark } = this.server.row;
    return { data, fence, mark };
  }
  set row(r: ResourceRow) {
    Object.assign(this.server.row, r);
  }
  async query(text: string, v: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number }> {
    return this.server.execute(text, v, 'client');
  }
}

function world(kind: ClientTokenKind, lie: Lie = 'none'): CheckWorld {
  let now = 0;
  const db = new RowDb();
  const lock = { holder: undefined as string | undefined, until: 0, counter: 10 };
  const paused = new Set<string>();
  const client = (name: string): CheckClient => {
    let token: number | string | undefined;
    let held = false;
    let count = 0;
    const resource = new Resource(db, 'none', 'k');
    return {
      name,
      call: async (body, access) => {
        if (paused.has(name)) throw new Error(`${name} is paused: the checks must not call it`);
        const req = wireRequest(body, 1, access);
        const answer = (a: Omit<ClientAnswer, 'id'>): ClientAnswer => ({ id: 1, ...a });
        switch (req.op) {
          case 'acquire': {
            const free = lock.holder === undefined || lock.until <= now;
            if (!free && lie !== 'fake-acquire') return answer({ type: 'fail', error: 'held' });
            if (lie !== 'fake-acquire') Object.assign(lock, { holder: name, until: now + req.ttlMs });
            const n = ++lock.counter;
            count++;
            const real = kind === 'monotonic' ? n : kind === 'unique' ? `${name}-${n}` : undefined;
            token = lie === 'reuse-token' ? 'same' : lie === 'fake-monotonic' ? 1000 - count : real;
            held = true;
            return answer({ type: 'ok', ...(token !== undefined ? { token } : {}), lease_ms: req.ttlMs });
          }
          case 'release': {
            const was = held && lock.holder === name && lock.until > now;
            held = false;
            if (was) lock.holder = undefined;
            return answer(was ? { type: 'ok' } : { type: 'fail', error: 'not-held' });
          }
          case 'shutdown':
            return answer({ type: 'ok' });
          default: {
            if (lie === 'ignores-statements' && req.op === 'write') {
              db.row = { ...db.row, data: String(req.value) };
              return answer({ type: 'ok', outcome: 'accepted' });
            }
            const bound = lie === 'binds-another-token' && typeof token === 'number' ? token + 1000 : token;
            const a = await resource.run(req.statements, req.op === 'final-read' ? undefined : bound);
            return answer({ ...a, ...(token !== undefined ? { token } : {}) });
          }
        }
      },
      pause: async () => void paused.add(name),
      resume: async () => void paused.delete(name),
    };
  };
  return {
    a: client('A'),
    b: client('B'),
    ready: { ready: true, protocol: 1, token: kind, versions: {} },
    key: 'k',
    callTimeoutMs: 1000,
    holdTtlMs: 4000,
    pausedTtlMs: 2000,
    pauseMs: 3500,
    row: async () => db.row,
    setRow: async (fence, mark) => void (db.row = { ...db.row, fence, mark }),
    resetRow: async () => void (db.row = { data: '', fence: 0, mark: null }),
    sleep: async (ms) => void (now += ms),
    now: () => now,
  };
}

const statuses = (rs: CheckResult[]) => Object.fromEntries(rs.map((r) => [r.check, r.status]));

describe('runContractChecks on a simulated lock', () => {
  it('an honest monotonic client passes every check, the paused holder fenced', async () => {
    const rs = await runContractChecks(world('monotonic'));
    expect(statuses(rs)).toEqual({
      ready: 'pass',
      acquire: 'pass',
      exclusion: 'pass',
      release: 'pass',
      'hand-over': 'pass',
      'token-order': 'pass',
      fence: 'pass',
      cas: 'pass',
      'paused-holder': 'pass',
    });
    expect(rs.find((r) => r.check === 'paused-holder')!.evidence).toContain('"error":"fenced"');
  });

  it('an honest unique-token client passes; fence does not apply', async () => {
    const s = statuses(await runContractChecks(world('unique')));
    expect(s).toMatchObject({ exclusion: 'pass', 'hand-over': 'pass', 'token-order': 'pass', fence: 'skip', cas: 'pass', 'paused-holder': 'pass' });
  });

  it('a client without tokens: fence and cas skipped, the paused holder unprotected (a warning, as announced)', async () => {
    const rs = await runContractChecks(world('none'));
    expect(statuses(rs)).toMatchObject({ 'token-order': 'pass', fence: 'skip', cas: 'skip', 'paused-holder': 'warn' });
    expect(rs.find((r) => r.check === 'paused-holder')!.evidence).toContain('the stale write went through');
  });

  it.each<[Lie, ClientTokenKind, string, string]>([
    ['fake-acquire', 'unique', 'exclusion', 'two holders at once'],
    ['reuse-token', 'unique', 'hand-over', 'was given twice'],
    ['fake-monotonic', 'monotonic', 'hand-over', 'not up'],
    ['binds-another-token', 'monotonic', 'fence', 'the client bound another token'],
    ['ignores-statements', 'monotonic', 'paused-holder', 'the stale write went through although the client announced monotonic tokens'],
  ])('the lie %s (%s tokens) fails %s', async (lie, kind, check, evidence) => {
    const rs = await runContractChecks(world(kind, lie));
    expect(rs.find((r) => r.check === check)).toMatchObject({ status: 'fail', evidence: expect.stringContaining(evidence) });
  });
});

describe('token rules', () => {
  it('fits and follows', () => {
    expect(tokenFits('monotonic', 7)).toBeUndefined();
    expect(tokenFits('monotonic', '123456789012345678901')).toBeUndefined();
    expect(tokenFits('monotonic', 'abc')).toContain('non-negative integer');
    expect(tokenFits('unique', undefined)).toContain('must give a token');
    expect(tokenFollows('monotonic', 5, 6)).toBeUndefined();
    expect(tokenFollows('monotonic', '99999999999999999999', '100000000000000000000')).toBeUndefined();
    expect(tokenFollows('monotonic', 6, 6)).toContain('not up');
    expect(tokenFollows('unique', 'x', 'x')).toContain('given twice');
    expect(tokenFollows('none', undefined, undefined)).toBeUndefined();
  });
});
