/**
 * The runner's side of the client protocol without processes: a fake client
 * process over in-memory pipes. The ready line's version and token kind, the
 * statements added to accesses, and each protocol violation (garbage, an
 * answer to nothing, an answer before ready, an exit mid-run) as `info
 * protocol-error` with the stderr tail, reported once.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ClientProcess } from '../../runtime/hosts/client-host.js';
import type { ProcessExit } from '../../runtime/hosts/cluster-errors.js';
import { FencecheckError } from '../../core/errors.js';
import { SQL } from '../../runtime/clients/resource-modes.js';
import type { ClientCrash } from '../../core/checkers/lock/evidence.js';
import { ClientSession, crashOf, wireRequest, type ProtocolViolation } from '../../runtime/runner/client-session.js';
import { processChannel } from '../../runtime/runner/client-channel.js';
import { madeTempDir } from '../support/temp-dirs.js';

const READY = '{"ready":true,"protocol":1,"token":"monotonic","versions":{"x":"1"}}';

function fakeClient(): {
  session: ClientSession;
  stdin: string[];
  say: (line: string) => void;
  err: (line: string) => void;
  exit: (e: ProcessExit) => void;
  violations: ProtocolViolation[];
  crashes: ClientCrash[];
} {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const written: string[] = [];
  stdin.on('data', (c: Buffer) => written.push(...c.toString().trim().split('\n')));
  let exit: (e: ProcessExit) => void = () => undefined;
  const exited = new Promise<ProcessExit>((r) => (exit = r));
  const proc = { name: 'client1-1', host: 'c1', pid: 1, child: { stdin, stdout, stderr }, exited } as unknown as ClientProcess;
  const violations: ProtocolViolation[] = [];
  const crashes: ClientCrash[] = [];
  const dir = madeTempDir('fencecheck-session-');
  const control = { pause: async () => undefined, resume: async () => undefined, kill: async () => undefined };
  const session = new ClientSession(
    processChannel(proc, join(dir, 'client.log')),
    control,
    { mode: 'fence', key: 'counter' },
    { onViolation: (v) => violations.push(v), onCrash: (c) => crashes.push(c) },
  );
  // A real process's pipes close when it exits.
  const exitNow = (e: ProcessExit) => {
    stderr.end();
    exit(e);
  };
  return { session, stdin: written, say: (l) => stdout.write(`${l}\n`), err: (l) => stderr.write(`${l}\n`), exit: exitNow, violations, crashes };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('ClientSession', () => {
  it('accesses go out with the statements of the run mode; answers are matched by id', async () => {
    const c = fakeClient();
    c.say(READY);
    expect((await c.session.ready).token).toBe('monotonic');
    const p = c.session.call({ op: 'write', value: 5 }, 10_000);
    await turn();
    const sent = JSON.parse(c.stdin[0]!) as { id: number; statements: { sql: string; params: unknown[] }[] };
    expect(sent).toMatchObject({ id: 1, op: 'write', value: 5 });
    expect(sent.statements).toEqual([{ sql: SQL.fencedWrite, params: ['counter', '5', { token: 'fence' }], rejectIfNoRow: 'fenced' }]);
    c.say('{"id":1,"type":"ok","outcome":"accepted","token":3,"fence":3,"started_ns":"12"}');
    expect(await p).toMatchObject({ id: 1, type: 'ok', fence: 3 });
    expect(c.violations).toEqual([]);
  });

  it('a ready line of another protocol version is refused with a clear error', async () => {
    const c = fakeClient();
    c.err('starting');
    c.say('{"ready":true,"protocol":2,"token":"monotonic","versions":{}}');
    const e = await c.session.ready.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(FencecheckError);
    expect((e as FencecheckError).exitCode).toBe(254);
    expect((e as Error).message).toContain('speaks protocol version 2 and this fencecheck speaks version 1');
    expect((e as Error).message).toContain('starting');
  });

  it('a ready line without protocol or with an unknown token kind is refused', async () => {
    const c = fakeClient();
    c.say('{"ready":true,"versions":{}}');
    await expect(c.session.ready).rejects.toThrow('speaks protocol version null');
    const d = fakeClient();
    d.say('{"ready":true,"protocol":1,"token":"fencing","versions":{}}');
    await expect(d.session.ready).rejects.toThrow('token kind is "fencing"');
  });

  it.each([
    ['garbage on stdout', 'Traceback (most recent call last):', 'not JSON'],
    ['an answer to a request never sent', '{"id":99,"type":"ok"}', 'answered id 99'],
    ['an unknown outcome type', '{"id":1,"type":"maybe"}', 'type "maybe"'],
    ['JSON that is no answer', '{"hello":1}', 'neither a ready line nor an answer'],
  ])('%s: the pending op is info protocol-error, reported once with the stderr tail', async (_, line, problem) => {
    const c = fakeClient();
    c.say(READY);
    await c.session.ready;
    c.err('something went wrong inside');
    await turn();
    const p = c.session.call({ op: 'acquire', ttlMs: 1000 }, 10_000);
    c.say(line);
    c.say(line);
    expect(await p).toEqual({ id: 1, type: 'info', error: 'protocol-error' });
    expect(c.violations).toHaveLength(1);
    expect(c.violations[0]!.problem).toContain(problem);
    expect(c.violations[0]!.stderrTail).toEqual(['something went wrong inside']);
    // Nothing more is sent to a client that broke the protocol.
    expect(await c.session.call({ op: 'release' }, 10_000)).toMatchObject({ type: 'info', error: 'protocol-error' });
  });

  it('an answer before the ready line is a violation', async () => {
    const c = fakeClient();
    c.say('{"id":1,"type":"ok"}');
    await expect(c.session.ready).rejects.toThrow('answered before its ready line');
  });

  it.each<[string, ProcessExit, boolean, string | undefined]>([
    ['a kill -9 (nemesis, retire)', { code: null, signal: 'SIGKILL' }, false, undefined],
    ['the teardown SIGTERM', { code: null, signal: 'SIGTERM' }, false, undefined],
    ['an exit 0 after shutdown', { code: 0, signal: null }, true, undefined],
    ['an abort (the zookeeper addon)', { code: null, signal: 'SIGABRT' }, false, 'signal SIGABRT'],
    ['a segfault while shutting down', { code: null, signal: 'SIGSEGV' }, true, 'signal SIGSEGV'],
    ['a non-zero exit after shutdown', { code: 1, signal: null }, true, 'exit code 1'],
    ['an exit 0 nobody asked for', { code: 0, signal: null }, false, 'exit code 0, not asked to end'],
  ])('crashOf: %s', (_what, exit, asked, crash) => {
    expect(crashOf(exit, asked)).toBe(crash);
  });

  it('a ready client that dies by a signal the harness did not send is a crash, with its stderr tail; one before ready is not', async () => {
    const c = fakeClient();
    c.say(READY);
    await c.session.ready;
    c.err("node: ../deps/uv/src/unix/poll.c:126: uv_poll_start: Assertion `!uv__is_closing(handle)' failed.");
    const p = c.session.call({ op: 'acquire', ttlMs: 1000 }, 10_000);
    c.exit({ code: null, signal: 'SIGABRT' });
    // Indeterminate: it may have reached the lock service before it died.
    expect(await p).toMatchObject({ type: 'info' });
    expect(c.crashes).toEqual([
      {
        client: 'client1-1',
        exit: 'signal SIGABRT',
        stderrTail: ["node: ../deps/uv/src/unix/poll.c:126: uv_poll_start: Assertion `!uv__is_closing(handle)' failed."],
      },
    ]);
    const early = fakeClient();
    early.exit({ code: null, signal: 'SIGSEGV' });
    await expect(early.session.ready).rejects.toThrow('exited before it was ready');
    const killed = fakeClient();
    killed.say(READY);
    await killed.session.ready;
    killed.exit({ code: null, signal: 'SIGKILL' });
    await turn();
    await new Promise((r) => setTimeout(r, 20));
    expect([...early.crashes, ...killed.crashes]).toEqual([]);
  });

  it('an exit in the middle of the run is a violation; a kill -9 or an exit after close is not', async () => {
    const c = fakeClient();
    c.say(READY);
    await c.session.ready;
    const p = c.session.call({ op: 'acquire', ttlMs: 1000 }, 10_000);
    c.exit({ code: 1, signal: null });
    expect(await p).toMatchObject({ type: 'info' });
    expect(c.violations.map((v) => v.problem)).toEqual(['exited in the middle of the run (exit code 1)']);
    const killed = fakeClient();
    killed.say(READY);
    await killed.session.ready;
    killed.exit({ code: null, signal: 'SIGKILL' });
    await turn();
    const closed = fakeClient();
    closed.say(READY);
    await closed.session.ready;
    closed.session.close();
    closed.exit({ code: 0, signal: null });
    await turn();
    expect([...killed.violations, ...closed.violations]).toEqual([]);
  });

  it('a client that exits before its ready line rejects ready with its stderr tail', async () => {
    const c = fakeClient();
    c.err('ModuleNotFoundError: No module named redis');
    await turn();
    c.exit({ code: 1, signal: null });
    await expect(c.session.ready).rejects.toThrow(/exited before it was ready[\s\S]*No module named redis/);
  });

  it('wireRequest: lock ops go as they are; mark in a mode without marks has no statements', () => {
    expect(wireRequest({ op: 'acquire', ttlMs: 5 }, 3, { mode: 'none', key: 'k' })).toEqual({ op: 'acquire', ttlMs: 5, id: 3 });
    expect(wireRequest({ op: 'mark' }, 4, { mode: 'none', key: 'k' })).toEqual({ op: 'mark', id: 4, statements: [] });
  });
});
