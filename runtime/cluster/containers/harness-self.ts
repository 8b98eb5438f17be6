/**
 * The harness as seen from inside its own container (the outer process set
 * FENCECHECK_HARNESS_CONTAINER): it never nests again, it joins the run's
 * network at the control address once it exists (the network's gateway
 * moves to .99, unused by the plan), it keeps itself and its clock volume
 * out of every reclaim, and it ends with the outer process.
 */
import { join } from 'node:path';
import { HARNESS_CONTAINER_ENV } from './harness-choice.js';
import { CLOCK_VOLUME_DIR, CLOCK_VOLUME_ENV, HARNESS_IMAGES_ENV, HARNESS_STDIN_ENV } from './harness-argv.js';
import { docker } from './docker-cli.js';
import { clockFileUnder } from '../../hosts/clock-file.js';

export interface HarnessSelf {
  /** This container's name. */
  container: string;
  /** The named volume holding the run's clock files, mounted at CLOCK_VOLUME_DIR. */
  clockVolume: string | undefined;
  /** The images the outer process asked for (the client image cannot hash the servers' Dockerfile itself). */
  images: { servers: string; client: string } | undefined;
}

export function harnessSelf(env: Readonly<Record<string, string | undefined>> = process.env): HarnessSelf | undefined {
  const container = env[HARNESS_CONTAINER_ENV];
  if (container === undefined || container === '') return undefined;
  const volume = env[CLOCK_VOLUME_ENV];
  const [servers, client] = (env[HARNESS_IMAGES_ENV] ?? '').split(' ');
  return { container, clockVolume: volume === undefined || volume === '' ? undefined : volume, images: servers && client ? { servers, client } : undefined };
}

/** The network's gateway when the harness holds the control address (.1). */
export const HARNESS_GATEWAY_OCTET = 99;

/** Where a process's clock offset file lives: in the run's clock volume when there is one, else under the run dir. */
export function clockFileIn(runDir: string, self: HarnessSelf | undefined): (name: string) => string {
  return self?.clockVolume ? (name) => join(CLOCK_VOLUME_DIR, `${name}.offset`) : (name) => clockFileUnder(runDir, name);
}

/** The mounts every container of the run gets for the clock volume (none without one). */
export function clockVolumeMounts(self: HarnessSelf | undefined): { source: string; target: string; mode: 'rw' }[] {
  return self?.clockVolume ? [{ source: self.clockVolume, target: CLOCK_VOLUME_DIR, mode: 'rw' }] : [];
}

/** Attach this container to the run's network at `ip` (the control address). */
export async function joinNetwork(self: HarnessSelf, network: string, ip: string): Promise<void> {
  await docker(['network', 'connect', '--ip', ip, network, self.container], { timeoutMs: 30_000 });
}

/**
 * When the outer process ends (a SIGKILL too), the docker CLI closes this
 * container's stdin: tear down as on SIGTERM. Only the top-level command
 * watches (the variable is removed so its children do not), and stdin does
 * not keep the process alive.
 */
export function endWithOuterProcess(): void {
  if (process.env[HARNESS_STDIN_ENV] !== '1') return;
  delete process.env[HARNESS_STDIN_ENV];
  const stdin = process.stdin;
  const end = (): void => {
    process.stderr.write('fencecheck: the outer process ended (stdin closed): tearing down\n');
    process.kill(process.pid, 'SIGTERM');
  };
  stdin.once('end', end);
  stdin.resume();
  (stdin as unknown as { unref?: () => void }).unref?.();
}
