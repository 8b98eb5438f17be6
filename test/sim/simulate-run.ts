/**
 * A lock run simulated: the run's real plan (planRun) executed by the real
 * interpreter (interpretRun: workers, critical sections, nemesis runner,
 * final read) on a virtual clock, driving the real ClientSession, which
 * drives simulated client processes running the real client code (runClient:
 * the backend's real lock client, RequestHandler, the resource modes' SQL).
 * Only the transports are simulated: the servers (sim-redis.ts, sim-db.ts,
 * ...), the network (sim-network.ts), processes that SIGSTOP freezes and
 * kill -9 ends (sim-process.ts). The servers record the truth as they act.
 *
 * Faults simulated, each as the real nemesis applies it: client pause and
 * kill; server pause, kill and restart (Redis without persistence forgets
 * its data), clock offsets on a server (its wall clock), partitions, packet
 * loss on a node, memory pressure (evict), and delays on a client's links
 * when the options ask for proxies.
 *
 * FoundationDB's simulation and TigerBeetle's VOPR are the models: the
 * production code, a simulated world, a seed.
 */
import { type RunOptions } from '../../core/plan/run-options.js';
import { interpretRun } from '../../runtime/runner/interpret-run.js';
import type { ClientFleet, DelayLink, NemesisPort } from '../../runtime/runner/ports.js';
import { Recorder } from '../../runtime/runner/recorder.js';
import { planRun, type RunPlan } from '../../core/plan/run-plan.js';
import { ClientSession } from '../../runtime/runner/client-session.js';
import { raceTimer } from '../../runtime/runner/clock.js';
import type { ClientConfig } from '../../core/client-protocol.js';
import { clientConfigOf, RUN_LOCK_NAME } from '../../core/client-config.js';
import { lockNameOf } from '../../core/systems/registry.js';
import type { Token } from '../../runtime/clients/lock-client.js';
import { loadLockClient } from '../../runtime/clients/create-lock-client.js';
import type { History } from '../../core/history/op.js';
import { Prng } from '../../core/random/prng.js';
import { SimPgDb, SimPgServer } from './sim-db.js';
import { startSimClient } from './sim-client-process.js';
import { simLockService } from './sim-lock-service.js';
import type { RedisHook } from './sim-redis.js';
import { SimNetwork } from './sim-network.js';
import { SimNode } from './sim-node.js';
import { SimTruth } from './sim-truth.js';
import { VirtualClock } from './virtual-clock.js';
import { isCounterWorkload } from '../../core/vocabulary.js';

export interface SimulatedRun {
  plan: RunPlan;
  history: History;
  truth: SimTruth;
  /** Events the virtual clock ran. */
  events: number;
}

/** Hooks of a test into the world (a fault at an exact instant of the protocol). */
export interface SimHooks {
  /** Called with the world once it is built. */
  world?: (w: SimWorld) => void;
  /** Told of every Redis command that changed a key, as the server applies it (after the truth). */
  redisCommand?: RedisHook;
}

export interface SimWorld {
  clock: VirtualClock;
  net: SimNetwork;
  nodes: Map<string, SimNode>;
  truth: SimTruth;
  /** The client processes by name, as they start. */
  clients: Map<string, ReturnType<typeof startSimClient>>;
}

const RESOURCE_KEY = 'counter';
const PORTS: Record<string, number> = { redis: 6379, redlock: 6379, etcd: 2379, zookeeper: 2181 };

export async function simulateRun(options: RunOptions, hooks: SimHooks = {}): Promise<SimulatedRun> {
  const plan = planRun(options);
  const o = plan.options;
  const clock = new VirtualClock();
  const root = new Prng(o.seed).fork('simulation');
  const net = new SimNetwork(clock, root.fork('network'));
  const truth = new SimTruth();
  const nodes = new Map([...plan.lockNodes, plan.resourceNode].map((n) => [n, new SimNode(n, clock)]));
  const lockName = lockNameOf(o.backend, RUN_LOCK_NAME);
  const service = simLockService(
    o.backend,
    plan.lockNodes.map((n) => nodes.get(n)!),
    net,
    truth,
    lockName,
    hooks.redisCommand,
  );
  const pg = new SimPgServer(
    nodes.get(plan.resourceNode)!,
    isCounterWorkload(o.workload) ? '0' : '',
    truth,
    isCounterWorkload(o.workload),
    o.resource === 'fence-claim',
  );
  // As prepareResource sets it for the run (ALTER DATABASE … SET idle_in_transaction_session_timeout).
  pg.idleTxTimeoutMs = o.idleTxTimeoutMs ?? 0;
  const world: SimWorld = { clock, net, nodes, truth, clients: new Map() };
  // Loaded before the clock runs: a module load takes real time, which virtual time must not see.
  const lockClient = await loadLockClient(o.backend);
  hooks.world?.(world);
  const recorder = new Recorder(undefined, clock);
  const sessions = new Set<ClientSession>();
  let pids = 1000;
  const fleet: ClientFleet = {
    async spawn(worker) {
      const host = plan.hosts[worker % plan.hosts.length]!;
      const name = `client${worker + 1}-${++pids}`;
      const rng = root.fork(name);
      // The production builder (core/client-config.ts): the simulation's clients get the run's configuration.
      const config: ClientConfig = clientConfigOf({
        client: worker,
        system: o,
        lockEndpoints: plan.lockNodes.map((n) => `${n}:${PORTS[o.backend] ?? 1}`),
        lockBase: RUN_LOCK_NAME,
        resource: o.resource,
        pg: { host: plan.resourceNode, port: 5432, user: 'postgres', database: 'postgres' },
        resourceKey: RESOURCE_KEY,
        callTimeoutMs: o.callTimeoutMs,
        sessionTimeoutMs: o.ttlMs,
        checkHold: o.checkHold,
      });
      const client = startSimClient(
        name,
        host,
        pids,
        clock,
        config,
        lockClient,
        (proc) => ({
          clock: proc.clock,
          random: () => rng.float(),
          randomHex: (bytes) => Array.from({ length: bytes }, () => rng.int(0, 255).toString(16).padStart(2, '0')).join(''),
          ...service.transports(proc, host, name),
          pg: (_endpoint, callTimeoutMs) => new SimPgDb(net, host, proc, pg, name, callTimeoutMs),
        }),
        (token) => truth.actsUnder(name, token as Token),
        (op) => (op === undefined ? truth.serving.delete(name) : truth.serving.set(name, op)),
      );
      world.clients.set(name, client);
      const session = new ClientSession(client.channel, client.control, { mode: o.resource, key: RESOURCE_KEY }, {}, clock);
      sessions.add(session);
      const ready = await raceTimer(clock, session.ready, 30_000, () => undefined);
      if (ready === undefined) throw new Error(`simulated client ${name} printed no ready line`);
      return session;
    },
  };
  const nemesis = simNemesis(world, plan, service.setPressure, sessions, o.proxies);
  await clock.drive(interpretRun(plan, { clock, recorder, fleet, nemesis, log: () => undefined }));
  truth.finalData = pg.row.data;
  return { plan, history: recorder.ops, truth, events: clock.events };
}

/** The NemesisPort over the simulated world: what the real nemesis does, done to the simulated nodes and network. */
function simNemesis(
  w: SimWorld,
  plan: RunPlan,
  setPressure: (node: string, on: boolean) => string[],
  sessions: Set<ClientSession>,
  proxies: RunOptions['proxies'],
): NemesisPort {
  const node = (name: string): SimNode => {
    const n = w.nodes.get(name);
    if (n === undefined) throw new Error(`no node ${name}`);
    return n;
  };
  const pressured = new Map<string, string[]>();
  return {
    pause: async (n) => node(n).proc.pause(),
    resume: async (n) => node(n).proc.resume(),
    kill: async (n) => node(n).kill(),
    restart: async (n) => node(n).restart(),
    clockOffset: async (n, ms) => void (node(n).offsetMs = ms),
    loss: async (n, _others, percent) => void (percent > 0 ? w.net.loss.set(n, percent) : w.net.loss.delete(n)),
    partition: async (grudge) => void ((w.net.grudge = grudge), w.net.changed()),
    // As the real heal: the partition and every loss off.
    heal: async () => void ((w.net.grudge = {}), w.net.loss.clear(), w.net.changed()),
    evict: async (n, _policy, onLockKeyEvicted) => {
      const evicted = setPressure(n, true);
      pressured.set(n, evicted);
      for (const key of evicted) onLockKeyEvicted(key);
      return { maxmemoryBytes: 0, usedMemoryBytes: 0 };
    },
    // Only the keys evicted at the start are counted: the simulation has no fillers to count.
    stopEvict: async (n) => {
      setPressure(n, false);
      const evicted = pressured.get(n) ?? [];
      return { evictedKeys: evicted.length, lockKeysEvicted: Object.fromEntries(evicted.map((k) => [k, 1])), fillersWritten: 0 };
    },
    // The simulation models no session lock (PostgreSQL's advisory locks): the fault does not apply to its backends (core/vocabulary.ts).
    endLockSessions: async () => {
      throw new Error('the simulation has no session lock for session-end');
    },
    healAll: async () => {
      w.net.grudge = {};
      w.net.loss.clear();
      w.net.linkDelays.clear();
      // As the real healAll: resumed and clocks back; a killed node is restarted by its own window's end, not here.
      for (const n of w.nodes.values()) {
        n.proc.resume();
        n.offsetMs = 0;
      }
      for (const n of pressured.keys()) setPressure(n, false);
      for (const s of sessions) await s.resume();
      w.net.changed();
    },
    leader: async () => plan.lockNodes[0],
    clientHosts: () => [...plan.hosts],
    delayLinks: (host) => simDelayLinks(w.net, host, proxies, plan.lockNodes, plan.resourceNode),
  };
}

/** A client host's delay links, as the real run's proxies (none unless the options ask for them). */
function simDelayLinks(
  net: SimNetwork,
  host: string,
  which: RunOptions['proxies'],
  lockNodes: readonly string[],
  resourceNode: string,
): Map<string, DelayLink> {
  const links = new Map<string, DelayLink>();
  if (which === undefined) return links;
  const nodes = [...(which !== 'lock' ? [resourceNode] : []), ...(which !== 'resource' ? lockNodes : [])];
  for (const node of nodes) links.set(node, { setDelay: async (ms) => void net.linkDelays.set(`${host} ${node}`, ms) });
  return links;
}
