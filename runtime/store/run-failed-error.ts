/**
 * RunFailedError: a run that failed after its directory was made. It carries
 * the directory, so whoever ran it (compare, scenarios, the CLI) can point at
 * the logs and the history so far without diffing directory listings.
 *
 * The run reached no verdict, so its exit code is 2 (unknown), or 254 when
 * the cause was bad input (a busy cluster, a full disk); never 255: a failed
 * run is a fact about the run, and its cause is in the message and `cause`.
 */
import { EXIT, FencecheckError, type ExitCode } from '../../core/errors.js';

export class RunFailedError extends FencecheckError {
  readonly runDir: string;
  constructor(runDir: string, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const inner = cause instanceof FencecheckError ? cause : undefined;
    const exitCode: ExitCode = inner?.exitCode === EXIT.badInput ? EXIT.badInput : EXIT.unknown;
    super('run-failed', `the run failed: ${message}`, {
      hint: `${inner?.hint ? `${inner.hint}\n` : ''}The run directory ${runDir} holds the history so far and every server's and client's log (logs/).`,
      exitCode,
      cause,
    });
    this.runDir = runDir;
  }
}
