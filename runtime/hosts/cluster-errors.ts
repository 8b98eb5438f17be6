/**
 * Typed failures of the cluster layer: each names the facts (command, node,
 * exit code or signal, last log lines, log path) and a hint saying what to do.
 */
import { EXIT, FencecheckError } from '../../core/errors.js';
import { shellQuote } from '../../core/shell-quote.js';

/** How a process ended: an exit code, or the signal that killed it. */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

export function describeExit(exit: ProcessExit): string {
  return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** A server did not start or did not become ready. */
export class ClusterStartError extends FencecheckError {
  readonly node: string;
  readonly command: readonly string[];
  readonly exit: ProcessExit | undefined;
  readonly logPath: string;
  readonly lastLogLines: readonly string[];
  constructor(facts: {
    node: string;
    what: string;
    command: readonly string[];
    exit?: ProcessExit;
    logPath: string;
    lastLogLines: readonly string[];
    hint?: string;
    cause?: unknown;
  }) {
    const tail = facts.lastLogLines.length === 0 ? '    (the log is empty)' : facts.lastLogLines.map((l) => `    ${l}`).join('\n');
    super('cluster-start', `${facts.node} ${facts.what}\n  command: ${shellQuote(facts.command)}\n  log: ${facts.logPath} (last lines below)\n${tail}`, {
      hint: facts.hint ?? `Read ${facts.logPath}; \`fencecheck doctor\` checks binaries and leftovers of earlier runs.`,
      cause: facts.cause,
    });
    this.node = facts.node;
    this.command = facts.command;
    this.exit = facts.exit;
    this.logPath = facts.logPath;
    this.lastLogLines = facts.lastLogLines;
  }
}

/** A helper command (ip, nft, apt-get, gcc) failed. */
export class CommandError extends FencecheckError {
  readonly command: readonly string[];
  readonly commandExitCode: number | undefined;
  readonly stderr: string;
  constructor(command: readonly string[], exitCode: number | undefined, stderr: string, hint?: string, cause?: unknown) {
    const status = exitCode === undefined ? 'could not run' : `failed with exit code ${exitCode}`;
    super('command', `\`${shellQuote(command)}\` ${status}${stderr.trim() ? `:\n  ${stderr.trim().split('\n').join('\n  ')}` : ''}`, {
      hint: hint ?? 'Run `fencecheck doctor` to check privileges, binaries and kernel features.',
      cause,
    });
    this.command = command;
    this.commandExitCode = exitCode;
    this.stderr = stderr;
  }
}

/** Something the machine lacks (privileges, a binary, a built library): fix it before running. Exit 254. */
export class PreflightError extends FencecheckError {
  constructor(message: string, hint: string) {
    super('preflight', message, { hint, exitCode: EXIT.badInput });
  }
}

/** Another live fencecheck process is running a cluster on this machine. Exit 254. */
export class ClusterBusyError extends FencecheckError {
  readonly ownerPid: number | undefined;
  constructor(ownerPid: number | undefined, stateFile: string) {
    super('cluster-busy', `Another fencecheck process${ownerPid ? ` (pid ${ownerPid})` : ''} is running a cluster on this machine (${stateFile}).`, {
      hint: 'Wait for it to end: add --busy-timeout-ms N (run, up, client-check) to wait up to N ms (compare and scenario run wait on their own); or tear it down anyway with `fencecheck down --force`.',
      exitCode: EXIT.badInput,
    });
    this.ownerPid = ownerPid;
  }
}

/**
 * Something was to be created after teardown began (a signal arrived while the
 * cluster was starting or running): it is refused, so teardown misses nothing.
 */
export class TeardownStartedError extends FencecheckError {
  constructor(what: string) {
    super('teardown-started', `Not starting ${what}: the cluster is being torn down (interrupted).`, {
      hint: 'Nothing to do: this follows an interrupt (SIGINT, SIGTERM, SIGHUP) or a failure reported above.',
    });
  }
}

/** A fault that cannot be applied to this target (a clock fault on etcd, an unknown node). Exit 254. */
export class UnsupportedFaultError extends FencecheckError {
  constructor(message: string, hint: string) {
    super('unsupported-fault', message, { hint, exitCode: EXIT.badInput });
  }
}
