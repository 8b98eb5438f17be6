/**
 * The client process's request handling without servers: a scripted lock
 * client, the real Resource over a fake Db, and the line loop over in-memory
 * streams (answers in order, one request at a time).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Acquired, LockClient } from '../../runtime/clients/lock-client.js';
import { failed, indeterminate } from '../../runtime/clients/op-error.js';
import type { ClientAnswer, ClientRequest } from '../../core/client-protocol.js';
import { RequestHandler } from '../../runtime/clients/request-handler.js';
import { Resource } from '../../runtime/clients/resource.js';
import { accessStatements } from '../../runtime/clients/resource-modes.js';
import { parseRequest, serveRequests, type Handler } from '../../runtime/clients/serve-requests.js';
import { FakeDb, type Reply } from './fake-db.js';

/** A lock client whose acquire/release results are scripted. */
class ScriptedLock implements LockClient {
  readonly backend = 'etcd';
  lost: string | undefined;
  constructor(
    private readonly acquires: (Acquired | Error)[],
    private readonly releases: (Error | undefined)[] = [],
  ) {}
  async connect(): Promise<void> {}
  async acquire(): Promise<Acquired> {
    const a = this.acquires.shift() ?? failed('held');
    if (a instanceof Error) throw a;
    return a;
  }
  async release(): Promise<void> {
    const r = this.releases.shift();
    if (r) throw r;
  }
  holdLost(): string | undefined {
    return this.lost;
  }
  async close(): Promise<void> {}
}

function handler(lock: LockClient, replies: Reply[] = [], checkHold = false): { db: FakeDb; h: RequestHandler } {
  const db = new FakeDb(replies);
  return { db, h: new RequestHandler(lock, new Resource(db, 'fence', 'k'), () => undefined, checkHold) };
}

/** The statements the runner sends with each access (fence mode, row k). */
const W = (value: string | number) => accessStatements('fence', 'write', 'k', value);
const FINAL = accessStatements('fence', 'final-read', 'k');
const READ_LINE = (id: number) => JSON.stringify({ id, op: 'read', statements: accessStatements('none', 'read', 'k') });

describe('RequestHandler', () => {
  it('a section: acquire, write under the token, release', async () => {
    const { db, h } = handler(new ScriptedLock([{ token: 12, lease_ms: 2000 }]), [{ rows: [{ fence: '12' }] }]);
    expect(await h.handle({ id: 1, op: 'acquire', ttlMs: 2000 })).toEqual({ id: 1, type: 'ok', token: 12, lease_ms: 2000 });
    expect(await h.handle({ id: 2, op: 'write', value: 'p0-1', statements: W('p0-1') })).toEqual({
      id: 2,
      type: 'ok',
      outcome: 'accepted',
      fence: 12,
      token: 12,
    });
    expect(await h.handle({ id: 3, op: 'release' })).toEqual({ id: 3, type: 'ok', token: 12 });
    expect(db.statements).toHaveLength(1);
  });

  it('acquire errors keep their type and code, with the TTL asked and no token', async () => {
    const { h } = handler(new ScriptedLock([failed('held'), indeterminate('timeout'), new TypeError('bug')]));
    expect(await h.handle({ id: 1, op: 'acquire', ttlMs: 1000 })).toEqual({ id: 1, type: 'fail', error: 'held', lease_ms: 1000 });
    expect(await h.handle({ id: 2, op: 'acquire', ttlMs: 1000 })).toEqual({ id: 2, type: 'info', error: 'timeout', lease_ms: 1000 });
    expect(await h.handle({ id: 3, op: 'acquire', ttlMs: 1000 })).toEqual({ id: 3, type: 'info', error: 'client-error', lease_ms: 1000 });
  });

  it('a second acquire while holding fails without asking the lock service', async () => {
    const { h } = handler(
      new ScriptedLock([
        { token: 1, lease_ms: 1000 },
        { token: 2, lease_ms: 1000 },
      ]),
    );
    await h.handle({ id: 1, op: 'acquire', ttlMs: 1000 });
    expect(await h.handle({ id: 2, op: 'acquire', ttlMs: 1000 })).toEqual({ id: 2, type: 'fail', error: 'already-held', lease_ms: 1000 });
  });

  it('release not-held is fail with the token; the hold is gone either way', async () => {
    const { h } = handler(new ScriptedLock([{ token: 4, lease_ms: 1000 }], [failed('not-held')]));
    await h.handle({ id: 1, op: 'acquire', ttlMs: 1000 });
    expect(await h.handle({ id: 2, op: 'release' })).toEqual({ id: 2, type: 'fail', error: 'not-held', token: 4 });
    expect(await h.handle({ id: 3, op: 'write', value: 1, statements: W(1) })).toEqual({ id: 3, type: 'fail', error: 'no-hold', outcome: 'unknown' });
  });

  it('a careful client (checkHold) does not touch the resource once its hold is known lost', async () => {
    const lock = new ScriptedLock([{ token: 9, lease_ms: 1000 }]);
    const { db, h } = handler(lock, [], true);
    await h.handle({ id: 1, op: 'acquire', ttlMs: 1000 });
    lock.lost = 'connection lost (session suspended)';
    expect(await h.handle({ id: 2, op: 'write', value: 1, statements: W(1) })).toEqual({
      id: 2,
      type: 'fail',
      error: 'lock-lost',
      outcome: 'unknown',
      token: 9,
    });
    expect(db.statements).toEqual([]);
  });

  it('by default a client writes whatever its library believes (most lock users do)', async () => {
    const lock = new ScriptedLock([{ token: 9, lease_ms: 1000 }]);
    const { db, h } = handler(lock, [{ rows: [{ fence: '9' }] }]);
    await h.handle({ id: 1, op: 'acquire', ttlMs: 1000 });
    lock.lost = 'connection lost (session suspended)';
    expect(await h.handle({ id: 2, op: 'write', value: 1, statements: W(1) })).toMatchObject({ id: 2, type: 'ok', token: 9 });
    expect(db.statements.length).toBe(1);
  });

  it('runs the statements the request carries, binding its own token', async () => {
    const { db, h } = handler(new ScriptedLock([{ token: 'u-1', lease_ms: 1000 }]), [{ rows: [{ fence: '0' }] }, { rows: [], rowCount: 0 }]);
    await h.handle({ id: 1, op: 'acquire', ttlMs: 1000 });
    // The handler's configured mode is fence; the request's statements (cas-unique) decide.
    expect(await h.handle({ id: 2, op: 'mark', statements: accessStatements('cas-unique', 'mark', 'k') })).toMatchObject({
      type: 'ok',
      outcome: 'accepted',
      token: 'u-1',
    });
    expect(await h.handle({ id: 3, op: 'write', value: 5, statements: accessStatements('cas-unique', 'write', 'k', 5) })).toMatchObject({
      type: 'fail',
      outcome: 'rejected',
      error: 'mark-changed',
    });
    expect(db.statements.map(([, v]) => v)).toEqual([
      ['k', 'u-1'],
      ['k', '5', 'u-1'],
    ]);
    // A unique token is no fencing token: nothing is sent.
    expect(await h.handle({ id: 4, op: 'write', value: 6, statements: W(6) })).toMatchObject({ type: 'fail', error: 'no-fencing-token' });
    expect(db.statements).toHaveLength(2);
  });

  it('final-read needs no hold; shutdown is ok', async () => {
    const { h } = handler(new ScriptedLock([]), [{ rows: [{ data: '17', fence: '3' }] }]);
    expect(await h.handle({ id: 1, op: 'final-read', statements: FINAL })).toEqual({ id: 1, type: 'ok', value: 17 });
    expect(await h.handle({ id: 2, op: 'shutdown' })).toEqual({ id: 2, type: 'ok' });
  });
});

describe('parseRequest', () => {
  it.each<[string, ReturnType<typeof parseRequest>]>([
    ['{"id":1,"op":"acquire","ttlMs":500}', { id: 1, op: 'acquire', ttlMs: 500 }],
    ['{"id":2,"op":"write","value":"p1-2","statements":[]}', { id: 2, op: 'write', value: 'p1-2', statements: [] }],
    ['{"id":3,"op":"write","statements":[]}', { id: 3, op: 'write', value: null, statements: [] }],
    [
      '{"id":4,"op":"final-read","statements":[{"sql":"SELECT 1","params":["k",{"token":"fence"},null],"rejectIfNoRow":"no-row","readOnly":true}]}',
      { id: 4, op: 'final-read', statements: [{ sql: 'SELECT 1', params: ['k', { token: 'fence' }, null], rejectIfNoRow: 'no-row', readOnly: true }] },
    ],
    ['{"id":9,"op":"read"}', { id: 9, problem: 'an access needs statements, a list' }],
    [
      '{"id":10,"op":"read","statements":[{"sql":"SELECT 1","params":[1],"rejectIfNoRow":"x"}]}',
      { id: 10, problem: 'statements[0].params must be texts, nulls or {"token":"fence"|"unique"}' },
    ],
    ['{"id":11,"op":"read","statements":[{"sql":"SELECT 1","params":[]}]}', { id: 11, problem: 'statements[0] needs rejectIfNoRow, a string' }],
    ['{"id":5,"op":"acquire"}', { id: 5, problem: 'acquire needs ttlMs, a positive integer' }],
    ['{"id":6,"op":"steal"}', { id: 6, problem: 'unknown op "steal"' }],
    ['{"op":"release"}', { id: -1, problem: 'no integer id' }],
    ['not json', { id: -1, problem: 'not JSON' }],
  ])('%s', (line, parsed) => {
    expect(parseRequest(line)).toEqual(parsed);
  });
});

describe('serveRequests', () => {
  /** A handler that yields to the event loop `turns` times per request (no real time) and records how many ran at once. */
  function slowHandler(turns: number): Handler & { seen: number[]; maxInFlight: number } {
    let inFlight = 0;
    const h = {
      seen: [] as number[],
      maxInFlight: 0,
      async handle(req: ClientRequest): Promise<ClientAnswer> {
        inFlight++;
        h.maxInFlight = Math.max(h.maxInFlight, inFlight);
        h.seen.push(req.id);
        for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
        inFlight--;
        return { id: req.id, type: 'ok' };
      },
    };
    return h;
  }

  async function run(lines: string[], h: Handler): Promise<{ how: string; answers: ClientAnswer[] }> {
    const input = new PassThrough();
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (c: Buffer) => chunks.push(c));
    // All lines arrive at once: the loop must still take them one at a time.
    input.end(lines.map((l) => `${l}\n`).join(''));
    const how = await serveRequests(input, output, h, () => undefined);
    const answers = Buffer.concat(chunks)
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ClientAnswer);
    return { how, answers };
  }

  it('answers one request at a time, in order, and stops at the end of input', async () => {
    const h = slowHandler(5);
    const { how, answers } = await run([READ_LINE(1), '', '{"id":2,"op":"release"}', JSON.stringify({ id: 3, op: 'final-read', statements: FINAL })], h);
    expect(how).toBe('end');
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(h.maxInFlight).toBe(1);
  });

  it('answers a bad line with fail bad-request and goes on', async () => {
    const { answers } = await run(['nonsense', '{"id":7,"op":"steal"}', READ_LINE(8)], slowHandler(0));
    expect(answers).toEqual([
      { id: -1, type: 'fail', error: 'bad-request' },
      { id: 7, type: 'fail', error: 'bad-request' },
      { id: 8, type: 'ok', started_ns: expect.stringMatching(/^\d+$/) },
    ]);
  });

  it('stamps each handled request with when the client began it, on the monotonic clock', async () => {
    const before = process.hrtime.bigint();
    const { answers } = await run([READ_LINE(1), READ_LINE(2)], slowHandler(1));
    const [a, b] = answers.map((x) => BigInt(x.started_ns!));
    expect(a! >= before && b! > a! && b! <= process.hrtime.bigint()).toBe(true);
  });

  it('stops after answering shutdown, reading nothing more', async () => {
    const h = slowHandler(0);
    const { how, answers } = await run([READ_LINE(1), '{"id":2,"op":"shutdown"}', READ_LINE(3)], h);
    expect(how).toBe('shutdown');
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(h.seen).toEqual([1, 2]);
  });
});
