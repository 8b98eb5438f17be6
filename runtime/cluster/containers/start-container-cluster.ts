/**
 * `startContainerCluster`: the same plan as the namespaces provider (names,
 * addresses, ports), made of containers.
 *
 * 1. A Docker daemon that answers, and the images of this checkout's content
 *    hash (`fencecheck images build` makes them).
 * 2. The machine's cluster lock, the reclaim of earlier leftovers (namespaces
 *    and labelled containers), the state file (provider `containers`, so an
 *    exit handler removes the containers too), the teardown hooks.
 * 3. One user-defined bridge network, `fc-net`, on the plan's /24 with the
 *    gateway at the control address (.1): this process reaches every node at
 *    its planned address over the bridge, as over `fc-ctl`.
 * 4. A host container per host (server or client) at its planned address,
 *    with NET_ADMIN for the nft partition scripts; then, per backend in
 *    parallel, each node prepared (on the host: initdb runs in the host
 *    container), its server container started in the host's namespace, and
 *    probed until ready.
 *
 * Everything is labelled with the run id and removed by label on teardown.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { StartedTestContainer } from 'testcontainers';
import { backendSpec } from '../backends/registry.js';
import { ClientHost } from '../../hosts/client-host.js';
import { Cluster } from '../cluster.js';
import { PreflightError } from '../../hosts/cluster-errors.js';
import { startHoldingClusterLock, type ClusterLock } from '../cluster-lock.js';
import type { SpecContext } from '../../hosts/driver.js';
import { defaultRunDir, defaultStateFile, nodeDataDir, sharedDataDir } from '../../hosts/paths.js';
import { allHosts, planClientHost, planCluster, type ClusterPlan, type HostPlan } from '../../../core/cluster/cluster-plan.js';
import { reclaim } from '../reclaim.js';
import { reclaimSync } from '../reclaim-sync.js';
import { chosenSubnet, type StartClusterOptions } from '../start-cluster.js';
import { StateFile } from '../../hosts/state-file.js';
import { installTeardownHooks } from '../teardown-hooks.js';
import { createClusterState, startBackends } from '../start-backends.js';
import { projectNamespaces } from '../topology.js';
import { ContainerClientHost, type ContainerClientRuntime } from './container-client-host.js';
import { hostContainerName, labelsFor, NETWORK_NAME, runIdOf, runLabels } from './container-labels.js';
import { ContainerServerNode } from './container-server-node.js';
import { docker, dockerStatus, imageExists } from './docker-cli.js';
import { IMAGE_CLOCK_LIBRARY } from './image-specs.js';
import { imageRef } from './image-tags.js';
import { IMAGE_TOOLS } from './image-tools.js';
import { clockFileIn, clockVolumeMounts, harnessSelf, HARNESS_GATEWAY_OCTET, joinNetwork } from './harness-self.js';
import { tcpReach } from './reachability.js';
import { reclaimContainers } from './reclaim-containers.js';
import { runtimeClient } from './runtime.js';

export async function startContainerCluster(opts: StartClusterOptions): Promise<Cluster> {
  const log = opts.log ?? (() => undefined);
  const backends = [...new Set(opts.backends)];
  const subnet = chosenSubnet(opts.subnet);
  const plan = planCluster({ backends, ...(subnet ? { subnet } : {}) });
  for (const name of opts.clientHosts ?? []) plan.clients.push(planClientHost(plan, name));
  const status = await dockerStatus();
  if (!status.usable) throw new PreflightError(`The containers provider needs a Docker daemon: ${status.reason ?? 'none answers'}.`, 'Run `npm run setup -- --docker` (Debian: installs docker.io, starts dockerd) or start Docker Desktop; `fencecheck doctor` says more.');
  // Inside a harness container the outer process named them (harness-self.ts): the image holds no Dockerfile to hash.
  const images = harnessSelf()?.images ?? { servers: imageRef('servers'), client: imageRef('client') };
  for (const ref of Object.values(images)) {
    if (!(await imageExists(ref))) throw new PreflightError(`The image ${ref} (this checkout's content hash) is missing.`, 'Run `fencecheck images build` (after `npm run build`).');
  }
  const stateFile = opts.stateFile ?? defaultStateFile();
  return startHoldingClusterLock(stateFile, opts.busyTimeoutMs ?? 0, (lock) => startLocked(opts, plan, images, stateFile, lock, log));
}

async function startLocked(
  opts: StartClusterOptions,
  plan: ClusterPlan,
  images: { servers: string; client: string },
  stateFile: string,
  lock: ClusterLock,
  log: (line: string) => void,
): Promise<Cluster> {
  const backends = [...new Set(opts.backends)];
  if (StateFile.read(stateFile) || projectNamespaces().length > 0) {
    const r = await reclaim({ stateFile });
    log(`reclaimed an earlier run: ${r.processes.length + r.strayPids.length} processes, ${r.namespaces.length} namespaces, ${r.containers.containers.length} containers`);
  } else {
    const r = await reclaimContainers();
    if (r.containers.length + r.networks.length > 0) log(`reclaimed an earlier run: ${r.containers.length} containers, ${r.networks.length} networks`);
  }
  const runDir = resolve(opts.runDir ?? defaultRunDir());
  for (const d of ['logs', 'data', 'clock', 'nft']) mkdirSync(join(runDir, d), { recursive: true });
  const runId = runIdOf(runDir, new Date());
  const state = createClusterState(stateFile, runDir, plan, { provider: 'containers', runId });
  let cluster: Cluster | undefined;
  const hooks = installTeardownHooks(
    () => (cluster ? cluster.teardown() : reclaim({ stateFile })),
    () => reclaimSync(stateFile),
  );
  // A harness in a container (harness-self.ts) keeps the clock files in a volume of the daemon's, not in the run dir.
  const self = harnessSelf();
  const clockFile = clockFileIn(runDir, self);
  // The run dir and the data dir of servers that run as another user (PostgreSQL), each at the same path inside.
  const shared = sharedDataDir(runDir);
  mkdirSync(shared, { recursive: true, mode: 0o755 });
  const mounts = [...[runDir, shared].map((d) => ({ source: d, target: d, mode: 'rw' as const })), ...clockVolumeMounts(self)];
  const client = await runtimeClient();
  const hostContainers = new Map<string, StartedTestContainer>();
  const startHost = async (h: HostPlan): Promise<void> => {
    state.assertOpen(`host container ${h.name}`);
    const { HostContainer } = await import('./host-container.js');
    const started = await new HostContainer(h.kind === 'server' ? images.servers : images.client, NETWORK_NAME, h.ip)
      .withName(hostContainerName(h))
      .withHostname(h.name)
      .withAddedCapabilities('NET_ADMIN')
      .withBindMounts(mounts)
      .withLabels(labelsFor(runId, 'host'))
      .withCommand(['sleep', 'infinity'])
      .withAutoCleanup(false)
      .start();
    hostContainers.set(h.name, started);
  };
  const ctx: SpecContext = {
    runDir,
    plan,
    tools: IMAGE_TOOLS,
    dataDir: (n) => nodeDataDir(runDir, n),
    logPath: (n) => join(runDir, 'logs', `${n.name}.log`),
    execOnHost: (n, argv, o) => docker(['exec', hostContainerName(n), ...argv], { timeoutMs: o?.timeoutMs ?? 30_000 }),
    userIds: async (name) => {
      const host = plan.nodes[0];
      if (!host) return undefined;
      const r = await docker(['exec', hostContainerName(host), 'sh', '-c', `id -u "$0" && id -g "$0"`, name], { reject: false });
      const [uid, gid] = r.stdout.split('\n').map(Number);
      return r.exitCode === 0 && uid !== undefined && gid !== undefined && !Number.isNaN(uid) && !Number.isNaN(gid) ? { uid, gid } : undefined;
    },
  };
  const abort = new AbortController();
  const nodeRuntime = { ctx, runId, image: images.servers, clockFile, mounts, readyTimeoutMs: opts.readyTimeoutMs ?? 60_000, signal: abort.signal };
  const nodes = plan.nodes.map((n) => new ContainerServerNode(n, backendSpec(n.backend, opts), nodeRuntime));
  const clientRuntime: ContainerClientRuntime = { state, clockLibrary: IMAGE_CLOCK_LIBRARY, clockFile, runId, mounts, image: images.client };
  cluster = new Cluster({
    plan,
    runDir,
    state,
    nodes,
    clientRuntime,
    nft: IMAGE_TOOLS.nft,
    hooks,
    lock,
    log,
    provider: {
      name: 'containers',
      clientHost: (h): ClientHost => new ContainerClientHost(h, clientRuntime),
      addHost: startHost,
      nftExec: async (namespace, script) => {
        await docker(['exec', '-i', namespace, 'nft', '-f', '-'], { input: script });
      },
      teardown: async ({ keepData }) => {
        // Data the servers wrote as their own users (PostgreSQL's) is removed from inside, as root there,
        // while the host containers still run: a harness that is not root could not remove it afterwards.
        if (!keepData) {
          await Promise.all(plan.nodes.map((n) => docker(['exec', hostContainerName(n), 'rm', '-rf', nodeDataDir(runDir, n)], { reject: false }).catch(() => undefined)));
        }
        await reclaimContainers(runId);
      },
    },
  });

  try {
    const t0 = Date.now();
    // The harness holds the control address: this machine's bridge (the gateway), or its own container on the network.
    const gateway = self ? `${plan.subnet}.${HARNESS_GATEWAY_OCTET}` : plan.control.ip;
    await client.network.create({ Name: NETWORK_NAME, Driver: 'bridge', CheckDuplicate: true, Labels: runLabels(runId), IPAM: { Driver: 'default', Config: [{ Subnet: `${plan.subnet}.0/24`, Gateway: gateway }] } });
    if (self) await joinNetwork(self, NETWORK_NAME, plan.control.ip);
    await Promise.all(allHosts(plan).map(startHost));
    log(`topology: network ${NETWORK_NAME} and ${allHosts(plan).length} host containers in ${Date.now() - t0} ms`);
    await assertReachable(plan, allHosts(plan)[0]);
    await startBackends({ cluster, nodes, backends, ctx, abort, log });
  } catch (err) {
    await cluster.teardown().catch(() => undefined);
    throw err;
  }
  if (opts.detach) {
    hooks.uninstall();
    state.update((s) => (s.owner.detached = true));
    await lock.release();
  }
  return cluster;
}


/**
 * Fail in seconds, with what to do, when this process cannot reach the host containers (Docker Desktop,
 * a remote daemon, Docker-in-Docker; reachability.ts), instead of waiting for every readiness probe.
 */
async function assertReachable(plan: ClusterPlan, host: HostPlan | undefined): Promise<void> {
  if (!host) return;
  const r = await tcpReach(host.ip);
  if (r.reachable !== false) return;
  throw new PreflightError(
    `This process cannot reach the containers' network ${plan.subnet}.0/24 (${r.detail}): Docker Desktop, a remote daemon and Docker-in-Docker do not route this machine to container networks.`,
    'Run with `--harness container` (or `--harness auto`, the default), so that fencecheck runs itself in a container on that network; `up` cannot serve such a machine.',
  );
}
