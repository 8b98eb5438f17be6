/**
 * Start a long-running process inside a host's network namespace.
 *
 * `ip netns exec NS prog` execs prog (as does setpriv for another user), so
 * the pid we get is the program's own pid. The process is started detached: it
 * leads its own process group (signals reach its children too, e.g.
 * PostgreSQL's backends) and neither a Ctrl-C in the terminal nor the end of
 * this process reaches it; the harness stops it explicitly, and the state file
 * lets the next command reclaim it if the harness dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ProcessExit } from './cluster-errors.js';
import { asUser } from './driver.js';
import { shellQuote } from '../../core/shell-quote.js';

export interface SpawnOptions {
  namespace: string;
  argv: readonly string[];
  /** Run as this user (through setpriv). */
  user?: string;
  setpriv?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Append stdout and stderr here; without it they are piped to the caller. */
  logPath?: string;
  cwd?: string;
}

export interface SpawnedProcess {
  child: ChildProcess;
  pid: number;
  /** The full command line, for error messages. */
  command: string[];
  /** Resolves when the process ends. */
  exited: Promise<ProcessExit>;
}

export function spawnInNamespace(opts: SpawnOptions): SpawnedProcess {
  const program = opts.user ? asUser(opts.user, opts.argv, opts.setpriv) : [...opts.argv];
  const command = ['ip', 'netns', 'exec', opts.namespace, ...program];
  let logFd: number | undefined;
  if (opts.logPath) {
    mkdirSync(dirname(opts.logPath), { recursive: true });
    logFd = openSync(opts.logPath, 'a');
    writeSync(logFd, `=== fencecheck ${new Date().toISOString()}: ${shellQuote(command)}\n`);
  }
  try {
    const [file = 'ip', ...args] = command;
    const child = spawn(file, args, {
      detached: true,
      stdio: logFd === undefined ? ['pipe', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
      env: { ...process.env, ...opts.env },
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    // A failed spawn (no `ip`) reports through 'error' and leaves pid undefined: thrown just below.
    child.on('error', () => undefined);
    if (child.pid === undefined) throw new Error(`could not spawn ${command.join(' ')}`);
    // Do not keep `fencecheck up` alive for the servers it leaves running.
    if (logFd !== undefined) child.unref();
    const exited = new Promise<ProcessExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    return { child, pid: child.pid, command, exited };
  } finally {
    if (logFd !== undefined) closeSync(logFd);
  }
}
