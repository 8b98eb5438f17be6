/**
 * Reclaim by label: every container, network and volume carrying
 * `org.fencecheck.project=fencecheck`, whatever run made it. What a run's
 * teardown, `fencecheck down` and the next start do, and (synchronously) the
 * last-resort exit handler; after a SIGKILL of the harness nothing else
 * remembers the containers, since testcontainers' reaper cannot run here
 * (runtime.ts). Containers go first (force: a paused or running one is
 * killed), then the networks they were attached to.
 */
import { execFileSync } from 'node:child_process';
import { which } from '../../hosts/binaries.js';
import { PROJECT_LABEL, ROLE_LABEL, RUN_LABEL } from './container-labels.js';
import { docker } from './docker-cli.js';
import { harnessSelf } from './harness-self.js';

export interface ContainerReclaim {
  containers: string[];
  networks: string[];
  volumes: string[];
}

const NONE: ContainerReclaim = { containers: [], networks: [], volumes: [] };

function filter(runId?: string): string {
  return runId === undefined ? `label=${PROJECT_LABEL}=fencecheck` : `label=${RUN_LABEL}=${runId}`;
}

const lines = (s: string): string[] =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * A harness running in a container carries the project's label too (so that `down` here reclaims it
 * after a SIGKILL of the outer process), but never removes itself or its clock volume, and leaves a
 * network before removing it (a network with an endpoint cannot be removed).
 */
function notSelf(names: string[]): string[] {
  const self = harnessSelf();
  return self ? names.filter((n) => n !== self.container && n !== self.clockVolume) : names;
}

function leaveArgs(networks: readonly string[]): string[][] {
  const self = harnessSelf();
  return self ? networks.map((n) => ['network', 'disconnect', '-f', n, self.container]) : [];
}

/**
 * Remove what is labelled (one run's, or the project's); nothing when no daemon answers.
 * `dataDirs` are first removed from inside a running host container (each mounts the run's
 * directories, and is root there): PostgreSQL's files belong to its user, which a harness that
 * is not root could not remove afterwards.
 */
export async function reclaimContainers(runId?: string, dataDirs: readonly string[] = []): Promise<ContainerReclaim> {
  if (!which('docker')) return NONE;
  const ps = await docker(['ps', '-a', '--filter', filter(runId), '--format', '{{.Names}}'], { reject: false, timeoutMs: 10_000 }).catch(() => undefined);
  if (!ps || ps.exitCode !== 0) return NONE;
  const containers = notSelf(lines(ps.stdout));
  if (dataDirs.length > 0) {
    const hosts = await docker(['ps', '--filter', filter(runId), '--filter', `label=${ROLE_LABEL}=host`, '--format', '{{.Names}}'], { reject: false });
    const host = lines(hosts.stdout)[0];
    if (host) await docker(['exec', host, 'rm', '-rf', ...dataDirs], { reject: false, timeoutMs: 60_000 });
  }
  if (containers.length > 0) await docker(['rm', '-f', '-v', ...containers], { reject: false, timeoutMs: 120_000 });
  const networks = lines((await docker(['network', 'ls', '--filter', filter(runId), '--format', '{{.Name}}'], { reject: false })).stdout);
  for (const args of leaveArgs(networks)) await docker(args, { reject: false, timeoutMs: 30_000 });
  if (networks.length > 0) await docker(['network', 'rm', ...networks], { reject: false, timeoutMs: 60_000 });
  const volumes = notSelf(lines((await docker(['volume', 'ls', '--filter', filter(runId), '--format', '{{.Name}}'], { reject: false })).stdout));
  if (volumes.length > 0) await docker(['volume', 'rm', '-f', ...volumes], { reject: false, timeoutMs: 60_000 });
  return { containers, networks, volumes };
}

/** The same, synchronously (an exit handler cannot wait for promises). */
export function reclaimContainersSync(runId?: string): void {
  if (!which('docker')) return;
  const run = (args: string[]): string => {
    try {
      return execFileSync('docker', args, { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return '';
    }
  };
  const containers = notSelf(lines(run(['ps', '-a', '--filter', filter(runId), '--format', '{{.Names}}'])));
  if (containers.length > 0) run(['rm', '-f', '-v', ...containers]);
  const networks = lines(run(['network', 'ls', '--filter', filter(runId), '--format', '{{.Name}}']));
  for (const args of leaveArgs(networks)) run(args);
  if (networks.length > 0) run(['network', 'rm', ...networks]);
}
