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
 * The steps every provider shares are start-on-provider.ts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { backendSpec } from '../backends/registry.js';
import { ClientHost } from '../../hosts/client-host.js';
import { CLOCK_DIR } from '../../hosts/clock-file.js';
import { Cluster, type ProviderHooks } from '../cluster.js';
import { PreflightError } from '../../hosts/cluster-errors.js';
import { UsageError } from '../../../core/errors.js';
import type { SpecContext } from '../../hosts/driver.js';
import { nodeDataDir, providerDataBase, sharedDataDir } from '../../hosts/paths.js';
import { allHosts, type ClusterPlan, type HostPlan } from '../../../core/cluster/cluster-plan.js';
import { reclaim } from '../reclaim.js';
import type { StartClusterOptions } from '../start-options.js';
import { startOnProvider, type Assembled, type Assembly, type Provider } from '../start-on-provider.js';
import { StateFile } from '../../hosts/state-file.js';
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

export function startContainerCluster(opts: StartClusterOptions): Promise<Cluster> {
  // Docker's names are machine-wide (the network `fc-net`, the containers `fc-<node>`, the labels reclaim goes by): one cluster at a time.
  if ((opts.slot ?? 0) !== 0)
    return Promise.reject(
      new UsageError(
        "The containers provider runs one cluster at a time: its network (`fc-net`), container names and labels are one machine-wide set, not a slot's.",
        'Run with --parallel 1 on --provider containers, or use the namespaces provider (root) for several clusters at once.',
      ),
    );
  return startOnProvider(opts, containersProvider());
}

/** Containers of a Docker daemon on one bridge network, a host container per host, a server container in each server's. */
function containersProvider(): Provider<ContainerServerNode> {
  let images = { servers: '', client: '' };
  return {
    runDirs: ['logs', 'data', CLOCK_DIR, 'nft'],
    stateOf: (runDir) => ({ provider: 'containers', runId: runIdOf(runDir, new Date()) }),
    async preflight() {
      const status = await dockerStatus();
      if (!status.usable)
        throw new PreflightError(
          `The containers provider needs a Docker daemon: ${status.reason ?? 'none answers'}.`,
          'Run `npm run setup -- --docker` (Debian: installs docker.io, starts dockerd) or start Docker Desktop; `fencecheck doctor` says more.',
        );
      // Inside a harness container the outer process named them (harness-self.ts): the image holds no Dockerfile to hash.
      images = harnessSelf()?.images ?? { servers: imageRef('servers'), client: imageRef('client') };
      for (const ref of Object.values(images)) {
        if (!(await imageExists(ref)))
          throw new PreflightError(`The image ${ref} (this checkout's content hash) is missing.`, 'Run `fencecheck images build` (after `npm run build`).');
      }
    },
    async claimMachine(stateFile, _plan, log) {
      if (StateFile.read(stateFile) || projectNamespaces(0).length > 0) {
        const r = await reclaim({ stateFile });
        log(
          `reclaimed an earlier run: ${r.processes.length + r.strayPids.length} processes, ${r.namespaces.length} namespaces, ${r.containers.containers.length} containers`,
        );
      } else {
        const r = await reclaimContainers();
        if (r.containers.length + r.networks.length > 0) log(`reclaimed an earlier run: ${r.containers.length} containers, ${r.networks.length} networks`);
      }
    },
    assemble: (a) => assembleContainers(a, images),
  };
}

/** Where the containers' shared data dirs go: the temp dir, whose paths the daemon mounts (ProviderFacts.sharedData). */
const DATA_BASE = providerDataBase('containers');

async function assembleContainers(
  { opts, plan, runDir, state, recorded, hooks, lock, signal, log }: Assembly,
  images: { servers: string; client: string },
): Promise<Assembled<ContainerServerNode>> {
  const runId = recorded.runId!;
  // A harness in a container (harness-self.ts) keeps the clock files in a volume of the daemon's, not in the run dir.
  const self = harnessSelf();
  const clockFile = clockFileIn(runDir, self);
  // The run dir and the data dir of servers that run as another user (PostgreSQL), each at the same path inside.
  const shared = sharedDataDir(runDir, DATA_BASE);
  mkdirSync(shared, { recursive: true, mode: 0o755 });
  const mounts = [...[runDir, shared].map((d) => ({ source: d, target: d, mode: 'rw' as const })), ...clockVolumeMounts(self)];
  const client = await runtimeClient();
  const startHost = async (h: HostPlan): Promise<void> => {
    state.assertOpen(`host container ${h.name}`);
    const { HostContainer } = await import('./host-container.js');
    await new HostContainer(h.kind === 'server' ? images.servers : images.client, NETWORK_NAME, h.ip)
      .withName(hostContainerName(h))
      .withHostname(h.name)
      .withAddedCapabilities('NET_ADMIN')
      .withBindMounts(mounts)
      .withLabels(labelsFor(runId, 'host'))
      .withCommand(['sleep', 'infinity'])
      .withAutoCleanup(false)
      .start();
  };
  const ctx: SpecContext = {
    runDir,
    plan,
    tools: IMAGE_TOOLS,
    dataDir: (n) => nodeDataDir(runDir, n, DATA_BASE),
    logPath: (n) => join(runDir, 'logs', `${n.name}.log`),
    execOnHost: (n, argv, o) => docker(['exec', hostContainerName(n), ...argv], { timeoutMs: o?.timeoutMs ?? 30_000 }),
    userIds: (name) => userIdsIn(plan, name),
  };
  const nodeRuntime = { ctx, runId, image: images.servers, clockFile, mounts, readyTimeoutMs: opts.readyTimeoutMs ?? 60_000, signal };
  const nodes = plan.nodes.map((n) => new ContainerServerNode(n, backendSpec(n.backend, opts), nodeRuntime));
  const clientRuntime: ContainerClientRuntime = { state, clockLibrary: IMAGE_CLOCK_LIBRARY, clockFile, runId, mounts, image: images.client };
  const cluster = new Cluster({
    plan,
    runDir,
    state,
    nodes,
    clientRuntime,
    nft: IMAGE_TOOLS.nft,
    hooks,
    lock,
    log,
    provider: containerHooks(plan, runDir, runId, clientRuntime, startHost),
  });
  const bringUp = async (): Promise<void> => {
    const t0 = Date.now();
    // The harness holds the control address: this machine's bridge (the gateway), or its own container on the network.
    const gateway = self ? `${plan.subnet}.${HARNESS_GATEWAY_OCTET}` : plan.control.ip;
    await client.network.create({
      Name: NETWORK_NAME,
      Driver: 'bridge',
      CheckDuplicate: true,
      Labels: runLabels(runId),
      IPAM: { Driver: 'default', Config: [{ Subnet: `${plan.subnet}.0/24`, Gateway: gateway }] },
    });
    if (self) await joinNetwork(self, NETWORK_NAME, plan.control.ip);
    await Promise.all(allHosts(plan).map(startHost));
    log(`topology: network ${NETWORK_NAME} and ${allHosts(plan).length} host containers in ${Date.now() - t0} ms`);
    await assertReachable(plan, allHosts(plan)[0]);
  };
  return { cluster, nodes, ctx, bringUp };
}

/** What the cluster does through Docker in place of namespaces: its host containers, their firewalls, their removal. */
function containerHooks(
  plan: ClusterPlan,
  runDir: string,
  runId: string,
  clientRuntime: ContainerClientRuntime,
  startHost: (h: HostPlan) => Promise<void>,
): ProviderHooks {
  return {
    name: 'containers',
    removes: 'containers and their network',
    clientHost: (h): ClientHost => new ContainerClientHost(h, clientRuntime),
    addHost: startHost,
    nftExec: async (namespace, script) => {
      await docker(['exec', '-i', namespace, 'nft', '-f', '-'], { input: script });
    },
    nftList: async (namespace) => (await docker(['exec', namespace, 'nft', 'list', 'tables'], { timeoutMs: 5000 })).stdout,
    teardown: async ({ keepData }) => {
      // Data the servers wrote as their own users (PostgreSQL's) is removed from inside, as root there,
      // while the host containers still run: a harness that is not root could not remove it afterwards.
      if (!keepData) {
        await Promise.all(
          plan.nodes.map((n) =>
            docker(['exec', hostContainerName(n), 'rm', '-rf', nodeDataDir(runDir, n, DATA_BASE)], { reject: false }).catch(() => undefined),
          ),
        );
      }
      await reclaimContainers(runId);
    },
  };
}

/** A user's uid and gid as the server image knows them (PostgreSQL's data dir is made as its user). */
async function userIdsIn(plan: ClusterPlan, name: string): Promise<{ uid: number; gid: number } | undefined> {
  const host = plan.nodes[0];
  if (!host) return undefined;
  const r = await docker(['exec', hostContainerName(host), 'sh', '-c', `id -u "$0" && id -g "$0"`, name], { reject: false });
  const [uid, gid] = r.stdout.split('\n').map(Number);
  return r.exitCode === 0 && uid !== undefined && gid !== undefined && !Number.isNaN(uid) && !Number.isNaN(gid) ? { uid, gid } : undefined;
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
