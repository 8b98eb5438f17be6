/**
 * Run a short helper command (ip, nft, apt-get, gcc) and fail with a typed
 * CommandError that carries the command line, the exit code and stderr.
 */
import { execa } from 'execa';
import { CommandError } from './cluster-errors.js';

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface RunOptions {
  input?: string;
  timeoutMs?: number;
  /** When false, a non-zero exit is returned, not thrown. */
  reject?: boolean;
  hint?: string;
  env?: Record<string, string>;
}

export async function runCommand(file: string, args: readonly string[], opts: RunOptions = {}): Promise<CommandResult> {
  const command = [file, ...args];
  let result;
  try {
    result = await execa(file, args, {
      input: opts.input ?? '',
      timeout: opts.timeoutMs ?? 30_000,
      reject: false,
      stripFinalNewline: true,
      ...(opts.env ? { env: opts.env } : {}),
    });
  } catch (err) {
    throw new CommandError(command, undefined, String(err), opts.hint, err);
  }
  if (result.failed && result.exitCode === undefined) {
    throw new CommandError(command, undefined, result.stderr || (result.shortMessage ?? ''), opts.hint);
  }
  const exitCode = result.exitCode ?? 0;
  if (exitCode !== 0 && opts.reject !== false) throw new CommandError(command, exitCode, result.stderr, opts.hint);
  return { stdout: result.stdout, stderr: result.stderr, exitCode };
}

/** `ip -batch` in the root namespace, or in `namespace` with `-n`. `force` goes on past failing lines (for teardown). */
export async function ipBatch(lines: readonly string[], opts: { namespace?: string; force?: boolean } = {}): Promise<CommandResult> {
  if (lines.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  const args = [...(opts.namespace ? ['-n', opts.namespace] : []), ...(opts.force ? ['-force'] : []), '-batch', '-'];
  return runCommand('ip', args, { input: lines.join('\n') + '\n', reject: !opts.force });
}
