/**
 * Before a command parses its flags: does this process run it, or a harness
 * in a container (harness-choice.ts)? With `auto` and the containers
 * provider, a probe network on the run's /24 answers whether this machine
 * reaches container addresses (reachability.ts), under the cluster lock.
 * Inside the harness container nothing is decided again: the command runs,
 * and ends when the outer process does (harness-self.ts).
 *
 * Why leftovers are reclaimed before the probe: a harness SIGKILLed mid-run
 * leaves its network on the run's /24, where the probe network cannot be
 * made; the probe then failed and `auto` fell back to the host. Under the
 * cluster lock no other run is live, so what the state file and the labels
 * name is a dead run's, and startCluster would reclaim it anyway.
 */
import { acquireClusterLock } from '../cluster-lock.js';
import { chosenSubnet } from '../chosen-subnet.js';
import { defaultStateFile } from '../../hosts/paths.js';
import { DEFAULT_SUBNET, parseSubnet } from '../../../core/cluster/cluster-plan.js';
import { decideHarness, harnessRequest, type Reachability } from './harness-choice.js';
import { endWithOuterProcess, harnessSelf } from './harness-self.js';
import { dockerStatus, imageExists } from './docker-cli.js';
import { imageRef } from './image-tags.js';
import { probeNetwork } from './reachability.js';
import { runHarnessInContainer } from './run-harness-in-container.js';

export type Redirect = { args: string[] } | { exitCode: number };

export async function harnessRedirect(argv: readonly string[], log: (line: string) => void): Promise<Redirect> {
  const req = harnessRequest(argv, process.env);
  if (harnessSelf()) {
    endWithOuterProcess();
    return { args: req.args };
  }
  if (!req.containers || req.choice === 'host') return { args: req.args };
  const harnessId = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const lock = await acquireClusterLock(defaultStateFile(), req.busyTimeoutMs);
  let handedOver = false;
  try {
    const images = { servers: imageRef('servers'), client: imageRef('client') };
    if (req.choice === 'auto') await reclaimLeftovers(log);
    const reach = req.choice === 'auto' ? await probe(images.client, harnessId) : undefined;
    const decision = decideHarness(req.choice, reach);
    log(`harness: ${decision.where === 'host' ? 'here' : 'in a container'} (${decision.why})`);
    if (decision.where === 'host') return { args: req.args };
    handedOver = true;
    return { exitCode: await runHarnessInContainer({ harnessId, images, args: req.args, log, lock }) };
  } finally {
    if (!handedOver) await lock.release();
  }
}

/** What a dead run left (state file, namespaces, containers, networks), before the probe needs its /24. */
async function reclaimLeftovers(log: (line: string) => void): Promise<void> {
  const { reclaim } = await import('../reclaim.js');
  const r = await reclaim();
  const c = r.containers;
  const parts = [...r.namespaces, ...c.containers, ...c.networks, ...c.volumes];
  if (parts.length > 0 || r.stateFile !== undefined)
    log(`harness: reclaimed what an earlier run left before probing: ${parts.length > 0 ? parts.join(', ') : r.stateFile}`);
}

/** Reachability of the run's /24 from here; inconclusive when there is nothing to probe with (the run says why). */
async function probe(image: string, harnessId: string): Promise<Reachability> {
  const status = await dockerStatus();
  if (!status.usable) return { reachable: undefined, detail: `not probed: ${status.reason ?? 'no Docker daemon'}` };
  if (!(await imageExists(image))) return { reachable: undefined, detail: `not probed: the image ${image} is missing` };
  const subnet = parseSubnet(chosenSubnet(undefined) ?? DEFAULT_SUBNET);
  return probeNetwork(subnet, image, `probe-${harnessId}`);
}
