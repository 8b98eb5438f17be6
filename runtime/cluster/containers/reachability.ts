/**
 * Does this process reach a container's address on a Docker network?
 *
 * One TCP connect to a port nobody listens on: a refusal (RST) comes back
 * from the container itself, so ECONNREFUSED proves the route as well as a
 * connection would; silence until the timeout, or EHOSTUNREACH/ENETUNREACH,
 * means this machine does not route to the network (Docker Desktop's VM, a
 * remote daemon, Docker-in-Docker, a firewall). Used twice: by `auto` before
 * a run (a short-lived probe network and container on the run's /24), and by
 * the cluster itself right after its host containers start, so a harness that
 * cannot reach them fails in seconds with a typed error instead of waiting
 * for every readiness probe to time out.
 */
import net from 'node:net';
import type { Reachability } from './harness-choice.js';
import { labelFlags, labelsFor, runLabels } from './container-labels.js';
import { docker } from './docker-cli.js';

/** Discard: nothing listens on it in fencecheck's images. */
export const PROBE_PORT = 9;
export const PROBE_TIMEOUT_MS = 1500;

export function tcpReach(ip: string, port = PROBE_PORT, timeoutMs = PROBE_TIMEOUT_MS): Promise<Reachability> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect({ host: ip, port });
    const done = (r: Reachability): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ reachable: false, detail: `no answer from ${ip}:${port} in ${timeoutMs} ms` }), timeoutMs);
    socket.once('connect', () => done({ reachable: true, detail: `connected to ${ip}:${port} in ${Date.now() - t0} ms` }));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      const ms = Date.now() - t0;
      if (err.code === 'ECONNREFUSED') done({ reachable: true, detail: `ECONNREFUSED from ${ip}:${port} in ${ms} ms` });
      else if (err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH' || err.code === 'ETIMEDOUT')
        done({ reachable: false, detail: `${err.code} for ${ip}:${port} in ${ms} ms` });
      else done({ reachable: undefined, detail: `${err.code ?? err.message} for ${ip}:${port} in ${ms} ms` });
    });
  });
}

export const PROBE_NETWORK = 'fc-probe';

/**
 * A labelled network on `subnet`.0/24 with one sleeping container of `image`
 * at .2, one TCP connect to it, then both removed. An inconclusive answer
 * (`reachable: undefined`) when the probe cannot be set up, e.g. the /24 is
 * taken by a cluster already running.
 */
export async function probeNetwork(subnet: string, image: string, probeId: string): Promise<Reachability> {
  const ip = `${subnet}.2`;
  const container = `${PROBE_NETWORK}-${probeId}`;
  try {
    // A probe left by an interrupted run (the caller holds the cluster lock: no other probe is under way).
    await docker(['network', 'rm', PROBE_NETWORK], { reject: false, timeoutMs: 30_000 });
    const net = await docker(['network', 'create', ...labelFlags(runLabels(probeId)), '--subnet', `${subnet}.0/24`, PROBE_NETWORK], {
      reject: false,
      timeoutMs: 30_000,
    });
    if (net.exitCode !== 0)
      return { reachable: undefined, detail: `not probed: docker network create ${subnet}.0/24 failed: ${net.stderr.trim().split('\n')[0] ?? ''}` };
    const run = await docker(
      ['run', '-d', '--rm', '--name', container, ...labelFlags(labelsFor(probeId, 'host')), '--network', PROBE_NETWORK, '--ip', ip, image, 'sleep', '60'],
      { reject: false, timeoutMs: 60_000 },
    );
    if (run.exitCode !== 0) return { reachable: undefined, detail: `not probed: the probe container did not start: ${run.stderr.trim().split('\n')[0] ?? ''}` };
    return await tcpReach(ip);
  } finally {
    await docker(['rm', '-f', container], { reject: false, timeoutMs: 30_000 }).catch(() => undefined);
    await docker(['network', 'rm', PROBE_NETWORK], { reject: false, timeoutMs: 30_000 }).catch(() => undefined);
  }
}
