/**
 * The runner's side of one lock client process (see ../clients/protocol.ts):
 * writes requests to its stdin, matches answers from its stdout by id, sends
 * its stderr to the client's log.
 *
 * `call` waits for the answer as long as the client lives, up to a give-up
 * time that is longer than any pause the nemesis imposes: a paused client
 * answers late, and late is the truth. If the client dies or the give-up time
 * passes, the op is indeterminate (`info`): it may have reached the lock
 * service or the resource before the end.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ClientProcess } from '../../src/cluster/client-host.js';
import { FencecheckError } from '../../src/errors.js';
import type { ClientAnswer, ClientReady } from '../clients/protocol.js';
import type { LockSession, RequestBody } from './ports.js';

type Pending = { resolve: (a: ClientAnswer) => void; timer: NodeJS.Timeout };

/** The process faults of one client, as the cluster's nemesis applies them. */
export interface ProcessControl {
  pause(): Promise<void>;
  resume(): Promise<void>;
  kill(): Promise<void>;
}

export class ClientSession implements LockSession {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly log: WriteStream;
  readonly ready: Promise<ClientReady>;
  private dead = false;

  constructor(
    readonly proc: ClientProcess,
    logPath: string,
    private readonly control: ProcessControl,
  ) {
    this.log = createWriteStream(logPath, { flags: 'a' });
    // A full disk must not crash the run ("Unhandled 'error' event"): a client's log is not its history; stop logging.
    this.log.on('error', () => this.log.destroy());
    const { stdout, stderr } = proc.child;
    if (!stdout || !stderr || !proc.child.stdin) throw new Error('a client process needs piped stdio');
    stderr.on('data', (chunk: Buffer) => this.log.write(chunk));
    proc.child.stdin.on('error', () => undefined); // EPIPE when the client died: the exit handler answers.
    let onReady: (r: ClientReady) => void = () => undefined;
    let onFailed: (e: Error) => void = () => undefined;
    this.ready = new Promise((res, rej) => ((onReady = res), (onFailed = rej)));
    createInterface({ input: stdout }).on('line', (line) => {
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        this.log.write(`[stdout, not JSON] ${line}\n`);
        return;
      }
      if (isReady(msg)) onReady(msg);
      else if (isAnswer(msg)) this.answer(msg);
      else this.log.write(`[stdout, unexpected] ${line}\n`);
    });
    void proc.exited.then((exit) => {
      this.dead = true;
      onFailed(new FencecheckError('client-exited', `lock client ${proc.name} exited before it was ready (${JSON.stringify(exit)})`, { hint: `See its log: ${logPath}` }));
      for (const [id, p] of this.pending) this.settle(id, p, { id, type: 'info', error: 'client-exited' });
    });
  }

  get alive(): boolean {
    return !this.dead;
  }

  get name(): string {
    return this.proc.name;
  }

  get host(): string {
    return this.proc.host;
  }

  get pid(): number {
    return this.proc.pid;
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

  /** Send one request and wait for its answer; `info` with `gave-up` after `giveUpMs`. */
  call(body: RequestBody, giveUpMs: number): Promise<ClientAnswer> {
    const id = this.nextId++;
    if (this.dead) return Promise.resolve({ id, type: 'info', error: 'client-exited' });
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, this.pending.get(id)!, { id, type: 'info', error: 'gave-up' }), giveUpMs);
      this.pending.set(id, { resolve, timer });
      this.proc.child.stdin!.write(JSON.stringify({ ...body, id }) + '\n');
    });
  }

  close(): void {
    this.proc.child.stdin?.end();
    this.log.end();
  }

  private answer(a: ClientAnswer): void {
    const p = this.pending.get(a.id);
    if (p) this.settle(a.id, p, a);
  }

  private settle(id: number, p: Pending, a: ClientAnswer): void {
    clearTimeout(p.timer);
    this.pending.delete(id);
    p.resolve(a);
  }
}

function isReady(m: unknown): m is ClientReady {
  return typeof m === 'object' && m !== null && (m as { ready?: unknown }).ready === true;
}

function isAnswer(m: unknown): m is ClientAnswer {
  return typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'number' && typeof (m as { type?: unknown }).type === 'string';
}
