/**
 * `npm run setup -- --docker`: Debian's docker.io and debootstrap installed,
 * and a Docker daemon running. Where none answers and this is a host without
 * systemd (these machines, many CI runners), `dockerd` is started by hand in
 * the background, its pid in /run/fencecheck-dockerd.pid and its log in
 * /var/log/fencecheck-dockerd.log; it keeps running after setup (`kill $(cat
 * /run/fencecheck-dockerd.pid)` stops it).
 */
import { closeSync, openSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { which } from '../../hosts/binaries.js';
import { PreflightError } from '../../hosts/cluster-errors.js';
import { dockerStatus } from './docker-cli.js';

export const DOCKER_PACKAGES = ['docker.io', 'debootstrap'] as const;
export const DOCKERD_PID_FILE = '/run/fencecheck-dockerd.pid';
export const DOCKERD_LOG = '/var/log/fencecheck-dockerd.log';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A daemon answering, starting dockerd when none does; returns what happened in words. */
export async function ensureDockerDaemon(log: (line: string) => void, timeoutMs = 30_000): Promise<string> {
  const before = await dockerStatus();
  if (before.usable) return `Docker daemon ${before.server} already running`;
  const dockerd = which('dockerd');
  if (!dockerd)
    throw new PreflightError(
      'No Docker daemon answers and `dockerd` is not installed.',
      "Run `npm run setup -- --docker` as root (Debian's docker.io), or start Docker Desktop.",
    );
  if (process.getuid?.() !== 0)
    throw new PreflightError(
      'No Docker daemon answers; starting dockerd needs root.',
      `Run as root: ${dockerd} --pidfile ${DOCKERD_PID_FILE} >${DOCKERD_LOG} 2>&1 &`,
    );
  const out = openSync(DOCKERD_LOG, 'a');
  const child = spawn(dockerd, ['--pidfile', DOCKERD_PID_FILE], { detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  child.unref();
  log(`started ${dockerd} (pid ${child.pid}; pid file ${DOCKERD_PID_FILE}, log ${DOCKERD_LOG})`);
  const deadline = Date.now() + timeoutMs;
  let last = before;
  while (Date.now() < deadline) {
    await sleep(500);
    last = await dockerStatus();
    if (last.usable) return `Docker daemon ${last.server} started, pid ${child.pid}`;
    if (child.exitCode !== null) break;
  }
  throw new PreflightError(`dockerd did not answer within ${timeoutMs / 1000} s (${last.reason ?? 'no reason given'}).`, `Read ${DOCKERD_LOG}.`);
}
