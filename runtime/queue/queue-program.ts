/**
 * One queue program (a producer or a worker, clients/node/queue/…) started
 * in its host's namespace: its ready line awaited (bounded), then a
 * producer's enqueue requests answered in order, or a worker's events passed
 * on as they come. A line that breaks the queue protocol is kept as a
 * violation with the program's name; a program that dies says so.
 */
import type { ClientHost, ClientProcess } from '../hosts/client-host.js';
import { processChannel, type ClientChannel } from '../runner/client-channel.js';
import {
  QueueLineError,
  readProducerAnswer,
  readReady,
  readWorkerEvent,
  type ProducerAnswer,
  type QueueReady,
  type WorkerEvent,
} from '../../core/queue/queue-events.js';

export interface QueueProgramOptions {
  host: ClientHost;
  argv: readonly string[];
  name: string;
  config: Record<string, unknown>;
  logPath: string;
  readyTimeoutMs: number;
  /** Each line that broke the protocol, said once per line. */
  onViolation: (text: string) => void;
}

export class QueueProgram {
  readonly name: string;
  readonly proc: ClientProcess;
  private readonly channel: ClientChannel;
  private ready: Promise<QueueReady>;
  private readyAnswer: QueueReady | undefined;
  private readonly waiting = new Map<number, (a: ProducerAnswer) => void>();
  private eventListener: ((e: WorkerEvent) => void) | undefined;
  private stopping = false;
  exitedUnasked: string | undefined;
  /** Jobs this worker took (a supervisor's back-off starts again for a worker that worked). */
  takes = 0;

  constructor(private readonly o: QueueProgramOptions) {
    this.name = o.name;
    this.proc = o.host.spawn(o.argv, { name: o.name, env: { FC_QUEUE_CONFIG: JSON.stringify(o.config) }, cwd: process.cwd() });
    this.channel = processChannel(this.proc, o.logPath);
    let resolveReady!: (r: QueueReady) => void;
    let rejectReady!: (e: Error) => void;
    this.ready = new Promise((res, rej) => ((resolveReady = res), (rejectReady = rej)));
    this.ready.catch(() => undefined);
    const timer = setTimeout(() => rejectReady(new Error(`${o.name}: no ready line within ${o.readyTimeoutMs} ms (its log: ${o.logPath})`)), o.readyTimeoutMs);
    this.channel.onStdoutLine((line) => {
      try {
        if (this.readyAnswer === undefined) {
          this.readyAnswer = readReady(line);
          clearTimeout(timer);
          resolveReady(this.readyAnswer);
          return;
        }
        if (o.config['role'] === 'producer') {
          const a = readProducerAnswer(line);
          this.waiting.get(a.id)?.(a);
          this.waiting.delete(a.id);
        } else {
          const e = readWorkerEvent(line);
          if (e.event === 'take') this.takes++;
          this.eventListener?.(e);
        }
      } catch (err) {
        if (!(err instanceof QueueLineError)) throw err;
        const text = `${o.name}: ${err.message}: ${line.slice(0, 200)}`;
        if (this.readyAnswer === undefined) {
          clearTimeout(timer);
          rejectReady(new Error(text));
        }
        o.onViolation(text);
      }
    });
    void this.proc.exited.then((exit) => {
      clearTimeout(timer);
      rejectReady(new Error(`${o.name} ended before its ready line (${describeExit(exit)}; its log: ${o.logPath})`));
      if (!this.stopping) this.exitedUnasked = describeExit(exit);
      for (const [id, answer] of this.waiting) answer({ id, type: 'info', error: `the producer ended (${describeExit(exit)})` });
      this.waiting.clear();
    });
  }

  whenReady(): Promise<QueueReady> {
    return this.ready;
  }

  /** A producer's enqueue of job, answered ok / fail / info; info after timeoutMs (the job may still land). */
  enqueue(id: number, job: number, timeoutMs: number): Promise<ProducerAnswer> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ id, type: 'info', error: 'timeout' });
      }, timeoutMs);
      this.waiting.set(id, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
      this.channel.send(JSON.stringify({ id, enqueue: job }));
    });
  }

  onEvent(fn: (e: WorkerEvent) => void): void {
    this.eventListener = fn;
  }

  /** The fault `client-kill`: kill -9 (a crash, an OOM kill), waiting until it has ended; never a violation. */
  async kill(): Promise<void> {
    this.stopping = true;
    await this.proc.kill();
  }

  /** Asked to stop: stdin closed (it closes its library and exits), then SIGTERM / SIGKILL by the host's rules. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    await this.proc.resume();
    this.channel.end();
    const ended = await Promise.race([this.proc.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), graceMs))]);
    if (!ended) await this.proc.stop();
  }
}

function describeExit(exit: { code: number | null; signal: string | null } | unknown): string {
  const e = exit as { code?: number | null; signal?: string | null };
  return e.signal ? `signal ${e.signal}` : `exit code ${e.code ?? '?'}`;
}
