/**
 * The `docker run` command line of the harness in a container (pure).
 *
 * - The client image: it already holds node, fencecheck's dist/ and
 *   node_modules/, and (for this) the docker CLI.
 * - The daemon's socket mounted: the inner harness creates the run's network
 *   and containers on the same daemon. `/var/run/docker.sock` is the path on
 *   the daemon's side, on Linux and inside Docker Desktop's VM alike,
 *   whatever socket the CLI here talks to.
 * - The working directory and the temp dir mounted at the same absolute
 *   paths: results (relative to the working directory) and PostgreSQL's
 *   shared data dir (under the temp dir) are bind-mounted again into the
 *   cluster's containers by the inner harness, and the daemon resolves those
 *   paths on its own side, so they must name the same folders there.
 * - A named volume for the clock offset files, mounted at the same path in
 *   every container of the run: the files are mmapped by the server and
 *   written by the nemesis in another container, which a volume inside the
 *   daemon's machine shares without going through a VM's file sharing.
 * - `-i` with a stdin the outer process never writes: when the outer process
 *   dies (even by SIGKILL) the CLI closes the container's stdin and the inner
 *   harness tears its cluster down (harness-self.ts).
 * - `--init`: node is not PID 1, so a re-raised SIGINT ends it as it would here.
 */
import { isAbsolute, relative } from 'node:path';
import { HARNESS_CONTAINER_ENV } from './harness-choice.js';
import { labelFlags, labelsFor } from './container-labels.js';
import { CLIENT_IMAGE_ROOT, IMAGE_NODE } from './image-specs.js';

export const DAEMON_SOCKET = '/var/run/docker.sock';
/** Where the clock volume is mounted in every container of a run whose harness is in a container. */
export const CLOCK_VOLUME_DIR = '/fencecheck-clock';
export const CLOCK_VOLUME_ENV = 'FENCECHECK_CLOCK_VOLUME';
/** The images' refs the outer process computed from its checkout (the client image holds no Dockerfile to hash). */
export const HARNESS_IMAGES_ENV = 'FENCECHECK_HARNESS_IMAGES';
/** Set by the outer process for the top-level inner command only (its children must not watch their own stdin). */
export const HARNESS_STDIN_ENV = 'FENCECHECK_HARNESS_STDIN';

export interface HarnessContainerSpec {
  /** `fc-harness-<id>`; also the run label's value of what the outer process creates (the clock volume). */
  harnessId: string;
  /** The client image (the harness runs in it) and the servers image (the inner run uses it): content-hash refs. */
  images: { servers: string; client: string };
  cwd: string;
  tmp: string;
  /** The command line without `--harness` (what follows `fencecheck`). */
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
}

export function harnessContainerName(harnessId: string): string {
  return `fc-harness-${harnessId}`;
}

export function clockVolumeName(harnessId: string): string {
  return `fc-clock-${harnessId}`;
}

/** Names of this environment's variables the inner harness gets too (their values via `-e NAME`, never in argv). */
export function passedEnvNames(env: Readonly<Record<string, string | undefined>>): string[] {
  // The state file stays the container's own: one under a mounted folder would record the inner run's pids,
  // which mean other processes here.
  const own = new Set(['FENCECHECK_HARNESS', HARNESS_CONTAINER_ENV, CLOCK_VOLUME_ENV, HARNESS_STDIN_ENV, HARNESS_IMAGES_ENV, 'FENCECHECK_STATE_FILE']);
  return Object.keys(env)
    .filter((k) => env[k] !== undefined && !own.has(k))
    .filter(
      (k) =>
        k.startsWith('FENCECHECK_') ||
        k.startsWith('TESTCONTAINERS_') ||
        ['CI', 'NO_COLOR', 'FORCE_COLOR'].includes(k) ||
        (k === 'DOCKER_HOST' && (env[k] ?? '').startsWith('tcp://')),
    )
    .sort();
}

/** The folders mounted at their own paths: each given one, minus those inside another. */
export function sameDirMounts(dirs: readonly string[]): string[] {
  const abs = [...new Set(dirs.filter((d) => isAbsolute(d)).map((d) => (d.length > 1 ? d.replace(/\/+$/, '') : d)))].sort();
  return abs.filter((d) => !abs.some((o) => o !== d && (o === '/' || !relative(o, d).startsWith('..'))));
}

export function harnessContainerArgv(spec: HarnessContainerSpec): string[] {
  const name = harnessContainerName(spec.harnessId);
  return [
    'run',
    '-i',
    '--rm',
    '--init',
    '--name',
    name,
    ...labelFlags(labelsFor(spec.harnessId, 'harness')),
    '-v',
    `${DAEMON_SOCKET}:${DAEMON_SOCKET}`,
    ...sameDirMounts([spec.cwd, spec.tmp]).flatMap((d) => ['-v', `${d}:${d}`]),
    '-v',
    `${clockVolumeName(spec.harnessId)}:${CLOCK_VOLUME_DIR}`,
    '-w',
    spec.cwd,
    '-e',
    `${HARNESS_CONTAINER_ENV}=${name}`,
    '-e',
    `${CLOCK_VOLUME_ENV}=${clockVolumeName(spec.harnessId)}`,
    '-e',
    `${HARNESS_STDIN_ENV}=1`,
    '-e',
    `${HARNESS_IMAGES_ENV}=${spec.images.servers} ${spec.images.client}`,
    '-e',
    `TMPDIR=${spec.tmp}`,
    ...passedEnvNames(spec.env).flatMap((k) => ['-e', k]),
    spec.images.client,
    IMAGE_NODE,
    `${CLIENT_IMAGE_ROOT}/dist/src/cli/main.js`,
    ...spec.args,
  ];
}
