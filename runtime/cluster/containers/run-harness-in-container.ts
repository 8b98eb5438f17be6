/**
 * The outer half of a harness in a container: this process holds the
 * machine's cluster lock (the inner one's lock lives in the container's own
 * network namespace and would not keep two runs apart), creates the run's
 * clock volume, runs `docker run -i` of the inner command (harness-argv.ts)
 * with stdout and stderr passed through, forwards SIGINT, SIGTERM and SIGHUP
 * to it (through the docker CLI, which relays them to the container; the
 * inner command tears its cluster down as it would here), and ends with its
 * exit code. The docker CLI runs in its own process group, so a Ctrl-C at the
 * terminal reaches the inner command once, through this process.
 *
 * After a SIGKILL of this process the CLI closes the container's stdin and
 * the inner command tears down by itself; what is left either way carries the
 * project's label, so `down` or the next run reclaims it.
 */
import { spawn } from 'node:child_process';
import { constants, tmpdir } from 'node:os';
import { acquireClusterLock } from '../cluster-lock.js';
import { PreflightError } from '../../hosts/cluster-errors.js';
import { defaultStateFile } from '../../hosts/paths.js';
import { clockVolumeName, harnessContainerArgv, harnessContainerName } from './harness-argv.js';
import { labelFlags, runLabels } from './container-labels.js';
import { docker } from './docker-cli.js';

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** `docker run` itself failed (125), or could not run the command (126, 127): not the inner command's status. */
const DOCKER_OWN_STATUS = new Set([125, 126, 127]);

export interface HarnessInContainer {
  harnessId: string;
  images: { servers: string; client: string };
  args: readonly string[];
  log: (line: string) => void;
  /** The cluster lock when the caller already holds it (taken for the probe). */
  lock?: { release(): Promise<void> };
}

/** Run the command line in the client image on the daemon; resolves to the exit status for this process. */
export async function runHarnessInContainer(h: HarnessInContainer): Promise<number> {
  const lock = h.lock ?? (await acquireClusterLock(defaultStateFile(), 0));
  const volume = clockVolumeName(h.harnessId);
  const name = harnessContainerName(h.harnessId);
  const forward = (signal: NodeJS.Signals): void => {
    h.log(`${signal}: passed to the harness in ${name}`);
    child?.kill(signal);
  };
  let child: ReturnType<typeof spawn> | undefined;
  try {
    await docker(['volume', 'create', ...labelFlags(runLabels(h.harnessId)), volume], { timeoutMs: 30_000 });
    const argv = harnessContainerArgv({ harnessId: h.harnessId, images: h.images, cwd: process.cwd(), tmp: tmpdir(), args: h.args, env: process.env });
    h.log(`running in ${name} (${h.images.client}) on the run's network`);
    for (const s of FORWARDED) process.on(s, forward);
    child = spawn('docker', argv, { stdio: ['pipe', 'inherit', 'inherit'], detached: true });
    const c = child;
    const status = await new Promise<number>((resolve, reject) => {
      c.once('error', reject);
      c.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)));
    });
    if (DOCKER_OWN_STATUS.has(status)) {
      throw new PreflightError(
        `\`docker run\` of the harness container ${name} failed (exit ${status}; its message is above).`,
        'Run `fencecheck doctor --provider containers`; `fencecheck images build` makes the client image.',
      );
    }
    return status;
  } finally {
    for (const s of FORWARDED) process.off(s, forward);
    child?.stdin?.destroy();
    await docker(['rm', '-f', name], { reject: false, timeoutMs: 60_000 }).catch(() => undefined);
    await docker(['volume', 'rm', '-f', volume], { reject: false, timeoutMs: 30_000 }).catch(() => undefined);
    await lock.release();
  }
}
