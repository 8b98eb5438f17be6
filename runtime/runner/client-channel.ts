/**
 * The pipes of one lock client process as the runner's ClientSession uses
 * them: lines to its stdin, lines from its stdout and stderr, its log, its
 * exit. `processChannel` is the production adapter over a spawned process
 * (ClientHost.spawn); the simulation (test/sim) passes a channel to a
 * simulated process running the real client code, so the real ClientSession
 * is what both run.
 */
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ClientProcess } from '../../runtime/hosts/client-host.js';
import type { ProcessExit } from '../../runtime/hosts/cluster-errors.js';

export interface ClientChannel {
  readonly name: string;
  readonly host: string;
  readonly pid: number;
  /** Where its stderr and the session's notes go. */
  readonly logPath: string;
  /** Each line it prints on stdout (the protocol channel). */
  onStdoutLine(fn: (line: string) => void): void;
  /** Each line it prints on stderr (already written to its log). */
  onStderrLine(fn: (line: string) => void): void;
  /** A note of the session's in its log. */
  log(text: string): void;
  /** One line to its stdin (the newline added here). */
  send(line: string): void;
  readonly exited: Promise<ProcessExit>;
  /** Its stderr has been read to the end. */
  readonly stderrClosed: Promise<void>;
  /** Close its stdin (it exits by itself) and the log. */
  end(): void;
}

/** The channel of a spawned client process: piped stdio, stderr appended to `logPath`. */
export function processChannel(proc: ClientProcess, logPath: string): ClientChannel {
  const log = createWriteStream(logPath, { flags: 'a' });
  // A full disk must not crash the run ("Unhandled 'error' event"): a client's log is not its history; stop logging.
  log.on('error', () => log.destroy());
  const { stdout, stderr, stdin } = proc.child;
  if (!stdout || !stderr || !stdin) throw new Error('a client process needs piped stdio');
  stderr.on('data', (chunk: Buffer) => log.write(chunk));
  const stderrLines = createInterface({ input: stderr });
  const stdoutLines = createInterface({ input: stdout });
  stdin.on('error', () => undefined); // EPIPE when the client died: the exit handler answers.
  return {
    name: proc.name,
    host: proc.host,
    pid: proc.pid,
    logPath,
    onStdoutLine: (fn) => void stdoutLines.on('line', fn),
    onStderrLine: (fn) => void stderrLines.on('line', fn),
    log: (text) => void log.write(text),
    send: (line) => void stdin.write(`${line}\n`),
    exited: proc.exited,
    stderrClosed: new Promise<void>((resolve) => stderr.once('close', () => resolve())),
    end: () => {
      stdin.end();
      log.end();
    },
  };
}
