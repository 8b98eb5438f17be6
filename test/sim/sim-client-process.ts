/**
 * A simulated lock client process: the real client code (runClient: the
 * real lock client of its backend, RequestHandler, the request loop) on a
 * simulated process (its timers and I/O wait while it is SIGSTOPped, die
 * with kill -9) and simulated transports, behind a ClientChannel, so the
 * runner's real ClientSession drives it as it drives a real process. The
 * pipes between them take a short hop each way; the runner's side is never
 * paused.
 */
import type { ProcessExit } from '../../runtime/hosts/cluster-errors.js';
import type { ClientRuntime } from '../../runtime/clients/client-runtime.js';
import type { ClientConfig } from '../../core/client-protocol.js';
import type { LockClientClass } from '../../runtime/clients/create-lock-client.js';
import { runClient } from '../../runtime/clients/run-client.js';
import type { ClientChannel } from '../../runtime/runner/client-channel.js';
import type { ProcessControl } from '../../runtime/runner/client-session.js';
import { SimProcess } from './sim-process.js';
import type { VirtualClock } from './virtual-clock.js';

/** A pipe's hop, ms. */
const PIPE_MS = 0.05;

/** Lines into a process: an async iterable that a stopped process does not read. */
class Stdin implements AsyncIterable<string> {
  private readonly lines: string[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  push(line: string): void {
    this.lines.push(line);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) yield line;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

export interface SimClient {
  channel: ClientChannel;
  control: ProcessControl;
  proc: SimProcess;
}

/**
 * `onGranted`: the token of each acquire the process answers ok (what it will act under), for the truth, which
 * ties a write to the grant of that token and not merely to the process's latest grant (a late SET of an
 * abandoned attempt can reach the servers after the process got another lock). `onServing`: the op the process
 * is serving now (undefined between requests), so the truth counts a release at the service only when it came
 * from a release (a delayed unlock of an earlier Redlock attempt can delete the value the process holds now).
 */
export function startSimClient(
  name: string,
  host: string,
  pid: number,
  clock: VirtualClock,
  config: ClientConfig,
  lockClient: LockClientClass,
  runtimeOf: (proc: SimProcess) => ClientRuntime,
  onGranted: (token: unknown) => void = () => undefined,
  onServing: (op: string | undefined) => void = () => undefined,
): SimClient {
  const proc = new SimProcess(clock);
  const stdin = new Stdin();
  const stdout = new Set<(line: string) => void>();
  const stderr = new Set<(line: string) => void>();
  let exit: (e: ProcessExit) => void = () => undefined;
  const exited = new Promise<ProcessExit>((resolve) => (exit = resolve));
  let done = false;
  const end = (e: ProcessExit): void => {
    if (done) return;
    done = true;
    exit(e);
  };
  // The runner reads what the process prints one hop later, whether or not the process still runs.
  const ops = new Map<number, string>();
  const print = (line: string): Promise<void> => {
    const a = JSON.parse(line) as { id?: number; type?: string; token?: unknown };
    if (a.type === 'ok' && a.id !== undefined && ops.get(a.id) === 'acquire') onGranted(a.token);
    if (a.id !== undefined && ops.has(a.id)) onServing(undefined);
    clock.setTimer(PIPE_MS, () => stdout.forEach((fn) => fn(line)));
    return Promise.resolve();
  };
  const log = (line: string): void => stderr.forEach((fn) => fn(line));
  // Started as the process (its first steps run while it runs); it exits 0 when its loop ends.
  proc.run(() => {
    runClient(config, {
      lines: stdin,
      print,
      log,
      closeInput: () => stdin.end(),
      runtime: runtimeOf(proc),
      versions: () => ({ simulation: '2' }),
      lockClient,
    }).then(
      () => proc.run(() => end({ code: 0, signal: null })),
      (err: unknown) => proc.run(() => (log(`lock client crashed: ${String(err)}`), end({ code: 255, signal: null }))),
    );
  });
  const channel: ClientChannel = {
    name,
    host,
    pid,
    logPath: `(simulated ${name})`,
    onStdoutLine: (fn) => void stdout.add(fn),
    onStderrLine: (fn) => void stderr.add(fn),
    log: () => undefined,
    send: (line) => {
      const r = JSON.parse(line) as { id: number; op: string };
      ops.set(r.id, r.op);
      clock.setTimer(PIPE_MS, () => proc.run(() => (onServing(r.op), stdin.push(line))));
    },
    exited,
    stderrClosed: exited.then(() => undefined),
    end: () => void clock.setTimer(PIPE_MS, () => proc.run(() => stdin.end())),
  };
  const control: ProcessControl = {
    pause: async () => proc.pause(),
    resume: async () => proc.resume(),
    kill: async () => {
      proc.kill();
      end({ code: null, signal: 'SIGKILL' });
    },
  };
  return { channel, control, proc };
}
