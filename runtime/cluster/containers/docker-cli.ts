/**
 * The docker CLI as short commands with typed errors, and whether a daemon
 * answers. Used where the testcontainers library has no call (image builds
 * with progress, stdio-attached client processes, the synchronous reclaim
 * at exit) and by doctor.
 */
import { runCommand, type CommandResult } from '../../hosts/run-command.js';
import { which } from '../../hosts/binaries.js';

const HINT = 'Is the Docker daemon running? `npm run setup -- --docker` installs and starts it on Debian; `fencecheck doctor` says what is missing.';

export function docker(args: readonly string[], opts: { input?: string; timeoutMs?: number; reject?: boolean } = {}): Promise<CommandResult> {
  return runCommand('docker', args, { hint: HINT, ...opts });
}

export interface DockerStatus {
  usable: boolean;
  /** `20.10.24 (API 1.41)` when usable. */
  server?: string;
  /** Why not, in words. */
  reason?: string;
}

/** Does a Docker daemon answer this machine's docker CLI? */
export async function dockerStatus(timeoutMs = 5000): Promise<DockerStatus> {
  if (!which('docker')) return { usable: false, reason: 'no `docker` command on PATH' };
  const r = await docker(['version', '--format', '{{.Server.Version}} (API {{.Server.APIVersion}})'], { reject: false, timeoutMs }).catch((err: unknown) => ({
    exitCode: 1,
    stdout: '',
    stderr: String(err),
  }));
  if (r.exitCode !== 0)
    return { usable: false, reason: `the daemon does not answer: ${(r.stderr.split('\n').find((l) => l.trim() !== '') ?? `exit ${r.exitCode}`).trim()}` };
  return { usable: true, server: r.stdout.trim() };
}

/** Does the daemon hold this image (name:tag)? */
export async function imageExists(ref: string): Promise<boolean> {
  const r = await docker(['image', 'inspect', '--format', '{{.Id}}', ref], { reject: false });
  return r.exitCode === 0;
}
