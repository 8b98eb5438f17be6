/**
 * The runner's side of one lock client process (see ../clients/protocol.ts
 * and docs/client-protocol.md): writes requests to its stdin, matches answers
 * from its stdout by id, sends its stderr to the client's log (and keeps its
 * tail for error messages).
 *
 * The runner asks for accesses by name (`read`, `write`, ...); the session
 * adds the statements of the run's resource mode (resource-modes.ts), so a
 * client only binds its token and runs them.
 *
 * `call` waits for the answer as long as the client lives, up to a give-up
 * time that is longer than any pause the nemesis imposes: a paused client
 * answers late, and late is the truth. If the client dies or the give-up time
 * passes, the op is indeterminate (`info`): it may have reached the lock
 * service or the resource before the end.
 *
 * A client that breaks the protocol (a line that is not JSON, an answer to no
 * pending request, a ready line of another protocol version, an exit in the
 * middle of the run) commits a protocol violation: its pending op ends `info
 * protocol-error`, and `onViolation` tells the run, which cannot then call
 * its verdict valid.
 *
 * It runs on a ClientChannel (client-channel.ts: the process's pipes) and a
 * Clock, so the simulation runs this very class against simulated processes.
 */
import type { ProcessExit } from '../hosts/cluster-errors.js';
import { EXIT, FencecheckError } from '../../core/errors.js';
import { accessStatements } from '../clients/resource-modes.js';
import { CLIENT_TOKEN_KINDS, PROTOCOL_VERSION, type ClientAnswer, type ClientReady, type ClientRequest } from '../../core/client-protocol.js';
import type { ResourceMode } from '../../core/vocabulary.js';
import type { LockSession, RequestBody } from './ports.js';
import type { ProtocolViolation } from '../../core/client-protocol.js';
import type { ClientCrash } from '../../core/checkers/lock/evidence.js';
import type { ClientChannel } from './client-channel.js';
import { realClock, sleepOn, type Clock } from './clock.js';

type Pending = { resolve: (a: ClientAnswer) => void; cancel: () => void };

/** The process faults of one client, as the cluster's nemesis applies them. */
export interface ProcessControl {
  pause(): Promise<void>;
  resume(): Promise<void>;
  kill(): Promise<void>;
}

/** The resource as this run uses it: the mode whose statements accesses carry, and the row. */
export interface SessionAccess {
  mode: ResourceMode;
  key: string;
}

export type { ProtocolViolation } from '../../core/client-protocol.js';

export interface SessionOptions {
  onViolation?: (v: ProtocolViolation) => void;
  /** The process died without being asked (crashOf), built-in client or foreign. */
  onCrash?: (c: ClientCrash) => void;
}

/**
 * The crash in a ready client's exit, or undefined when the harness asked for it: SIGKILL (a nemesis kill, a
 * retire) and SIGTERM (the teardown) are ours, and so is an exit 0 after we closed its input or sent shutdown.
 * Any other signal (SIGABRT, SIGSEGV, ...), a non-zero exit code, or an exit 0 nobody asked for is a crash.
 * (A SIGKILL from elsewhere, the kernel's OOM killer say, cannot be told from ours and is not counted.)
 */
export function crashOf(exit: { code: number | null; signal: string | null }, asked: boolean): string | undefined {
  if (exit.signal === 'SIGKILL' || exit.signal === 'SIGTERM') return undefined;
  if (exit.signal) return `signal ${exit.signal}`;
  if (exit.code === 0 && asked) return undefined;
  return exit.code === 0 ? 'exit code 0, not asked to end' : `exit code ${String(exit.code)}`;
}

/** The wire request of a runner's request: the id, and an access's statements. */
export function wireRequest(body: RequestBody, id: number, access: SessionAccess): ClientRequest {
  if (body.op === 'acquire' || body.op === 'release' || body.op === 'shutdown') return { ...body, id };
  if (body.op === 'write') {
    const { readVersion, ...write } = body;
    return { ...write, id, statements: accessStatements(access.mode, 'write', access.key, body.value, readVersion) };
  }
  return { ...body, id, statements: accessStatements(access.mode, body.op, access.key) } as ClientRequest;
}

const STDERR_TAIL = 20;

export class ClientSession implements LockSession {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly tail: string[] = [];
  readonly ready: Promise<ClientReady>;
  private dead = false;
  private isReady = false;
  private closing = false;
  private violated: ProtocolViolation | undefined;

  constructor(
    readonly channel: ClientChannel,
    private readonly control: ProcessControl,
    private readonly access: SessionAccess,
    private readonly options: SessionOptions = {},
    private readonly clock: Clock = realClock,
  ) {
    channel.onStderrLine((line) => {
      this.tail.push(line);
      if (this.tail.length > STDERR_TAIL) this.tail.shift();
    });
    let onReady: (r: ClientReady) => void = () => undefined;
    let onFailed: (e: Error) => void = () => undefined;
    this.ready = new Promise((res, rej) => ((onReady = res), (onFailed = rej)));
    // A rejection nobody awaits yet (the spawner races it with a timer) must not crash the runner.
    this.ready.catch(() => undefined);
    channel.onStdoutLine((line) => {
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        channel.log(`[stdout, not JSON] ${line}\n`);
        if (line.trim() !== '') this.reportViolation(`printed a line that is not JSON: ${JSON.stringify(line.slice(0, 200))}`, onFailed);
        return;
      }
      if (isReady(msg)) {
        const wrong = readyProblem(msg);
        if (wrong) return this.reportViolation(wrong, onFailed);
        this.isReady = true;
        onReady(msg);
      } else if (isAnswer(msg)) this.answer(msg, line, onFailed);
      else this.reportViolation(`printed a line that is neither a ready line nor an answer: ${JSON.stringify(line.slice(0, 200))}`, onFailed);
    });
    void channel.exited.then((exit) => this.exitedWith(exit, onFailed));
  }

  /** The process ended: a crash or a violation if nobody asked for it, and every pending op ends `info client-exited`. */
  private async exitedWith(exit: ProcessExit, onFailed: (e: Error) => void): Promise<void> {
    // 'exit' can come before the last stderr lines are read: wait for the pipe to close (briefly) so the tail is complete.
    await Promise.race([this.channel.stderrClosed, sleepOn(this.clock, 500)]);
    this.dead = true;
    const crash = this.isReady ? crashOf(exit, this.closing) : undefined;
    if (crash !== undefined) {
      this.channel.log(`[crash] ${this.name} died without being asked (${crash})\n`);
      this.options.onCrash?.({ client: this.name, exit: crash, stderrTail: [...this.tail] });
    }
    // Ours: stdin closed or shutdown (closing), kill -9 by the nemesis or a retire, SIGTERM at teardown. Anything else is the client's doing.
    if (this.isReady && !this.closing && exit.signal !== 'SIGKILL' && exit.signal !== 'SIGTERM') {
      this.reportViolation(`exited in the middle of the run (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`, onFailed);
    }
    onFailed(this.error('client-exited', `lock client ${this.name} exited before it was ready (${JSON.stringify(exit)})`));
    for (const [id, p] of this.pending) this.settle(id, p, { id, type: 'info', error: 'client-exited' });
  }

  get alive(): boolean {
    return !this.dead;
  }

  get name(): string {
    return this.channel.name;
  }

  get host(): string {
    return this.channel.host;
  }

  get pid(): number {
    return this.channel.pid;
  }

  /** Where its stderr goes. */
  get logPath(): string {
    return this.channel.logPath;
  }

  /** Resolves when the process has ended. */
  get exited(): Promise<ProcessExit> {
    return this.channel.exited;
  }

  pause(): Promise<void> {
    return this.control.pause();
  }

  resume(): Promise<void> {
    return this.control.resume();
  }

  kill(): Promise<void> {
    return this.control.kill();
  }

  /** The last lines of the client's stderr. */
  stderrTail(): string[] {
    return [...this.tail];
  }

  /** The protocol violation of this client, if it committed one. */
  get protocolViolation(): ProtocolViolation | undefined {
    return this.violated;
  }

  /** A typed error about this client (exit 254), with its stderr tail and log. */
  error(code: string, message: string): FencecheckError {
    const tail = this.tail.length > 0 ? `\nLast lines of its stderr:\n  ${this.tail.slice(-10).join('\n  ')}` : '\nIt wrote nothing to stderr.';
    return new FencecheckError(code, `${message}${tail}`, {
      hint: `See its whole log: ${this.logPath}. The protocol is docs/client-protocol.md (version ${PROTOCOL_VERSION}).`,
      exitCode: EXIT.badInput,
    });
  }

  /** Send one request and wait for its answer; `info` with `gave-up` after `giveUpMs`. `access` overrides the session's mode and row (client-check). */
  call(body: RequestBody, giveUpMs: number, access: SessionAccess = this.access): Promise<ClientAnswer> {
    const id = this.nextId++;
    if (body.op === 'shutdown') this.closing = true;
    if (this.dead) return Promise.resolve({ id, type: 'info', error: 'client-exited' });
    if (this.violated) return Promise.resolve({ id, type: 'info', error: 'protocol-error' });
    return new Promise((resolve) => {
      const cancel = this.clock.setTimer(giveUpMs, () => this.settle(id, this.pending.get(id)!, { id, type: 'info', error: 'gave-up' }));
      this.pending.set(id, { resolve, cancel });
      this.channel.send(JSON.stringify(wireRequest(body, id, access)));
    });
  }

  close(): void {
    this.closing = true;
    this.channel.end();
  }

  private answer(a: ClientAnswer, line: string, onFailed: (e: Error) => void): void {
    if (!this.isReady) return this.reportViolation(`answered before its ready line: ${JSON.stringify(line.slice(0, 200))}`, onFailed);
    const p = this.pending.get(a.id);
    if (!p)
      return this.reportViolation(
        `answered id ${a.id}, which is not the request waiting for an answer (${[...this.pending.keys()].join(', ') || 'none'}): ${JSON.stringify(line.slice(0, 200))}`,
        onFailed,
      );
    if (a.type !== 'ok' && a.type !== 'fail' && a.type !== 'info')
      return this.reportViolation(`answered with type ${JSON.stringify(a.type)} (expected ok, fail or info)`, onFailed);
    this.settle(a.id, p, a);
  }

  /** A broken protocol: remembered, reported once, and every pending op ends indeterminate. */
  private reportViolation(problem: string, onFailed: (e: Error) => void): void {
    this.channel.log(`[protocol violation] ${problem}\n`);
    if (this.violated) return;
    this.violated = { client: this.name, problem, stderrTail: [...this.tail] };
    onFailed(this.error('client-protocol', `lock client ${this.name} broke the protocol: ${problem}`));
    this.options.onViolation?.(this.violated);
    for (const [id, p] of this.pending) this.settle(id, p, { id, type: 'info', error: 'protocol-error' });
  }

  private settle(id: number, p: Pending, a: ClientAnswer): void {
    p.cancel();
    this.pending.delete(id);
    p.resolve(a);
  }
}

/** What is wrong with a ready line, or undefined. */
export function readyProblem(r: ClientReady): string | undefined {
  if (r.protocol !== PROTOCOL_VERSION) {
    return `it speaks protocol version ${JSON.stringify(r.protocol ?? null)} and this fencecheck speaks version ${PROTOCOL_VERSION} (the ready line must carry "protocol":${PROTOCOL_VERSION})`;
  }
  if (!CLIENT_TOKEN_KINDS.includes(r.token))
    return `its ready line's token kind is ${JSON.stringify(r.token ?? null)}, expected one of ${CLIENT_TOKEN_KINDS.join(', ')}`;
  if (typeof r.versions !== 'object' || r.versions === null) return 'its ready line has no versions object';
  if (r.features !== undefined && !(Array.isArray(r.features) && r.features.every((f) => typeof f === 'string')))
    return `its ready line's features are ${JSON.stringify(r.features)}, expected a list of names such as ["transactions"]`;
  return undefined;
}

function isReady(m: unknown): m is ClientReady {
  return typeof m === 'object' && m !== null && (m as { ready?: unknown }).ready === true;
}

function isAnswer(m: unknown): m is ClientAnswer {
  return typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'number' && typeof (m as { type?: unknown }).type === 'string';
}
