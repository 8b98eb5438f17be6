/**
 * A lock run simulated: the run's real plan (planRun) executed by the real
 * interpreter (interpretRun: workers, critical sections, nemesis runner,
 * final read) on a virtual clock, against a simulated world that records the
 * truth. What is simulated: the lock service (Redis-style leases with a
 * monotonic or unique token), the resource's database (the real resource
 * modes' SQL on one row), the network between hosts, and processes that a
 * SIGSTOP freezes. Faults simulated: client pause and kill, server pause,
 * partitions, memory pressure (evict: the lock key evicted), and (when the
 * options ask for proxies, as a real run's delay proxies) a delay on a
 * client's link, slowing each request on it; the others fail as the real
 * nemesis fails when it cannot act, and are recorded so.
 *
 * FoundationDB's simulation and TigerBeetle's VOPR are the models: the
 * production code, a simulated world, a seed.
 */
import { type RunOptions } from '../../core/plan/run-options.js';
import { interpretRun } from '../../runtime/runner/interpret-run.js';
import type { ClientFleet, NemesisPort } from '../../runtime/runner/ports.js';
import { Recorder } from '../../runtime/runner/recorder.js';
import { planRun, type RunPlan } from '../../core/plan/run-plan.js';
import type { History } from '../../core/history/op.js';
import { Prng } from '../../core/random/prng.js';
import { SimDb, type SimResource } from './sim-db.js';
import { SimLockClient } from './sim-lock-client.js';
import { SimLockService } from './sim-lock-service.js';
import { SimNetwork } from './sim-network.js';
import { SimProcess } from './sim-process.js';
import { SimSession } from './sim-session.js';
import type { SimTruth } from './sim-truth.js';
import { VirtualClock } from './virtual-clock.js';
import { tokenKindOf } from '../../core/vocabulary.js';
import type { DelayLink } from '../../runtime/runner/ports.js';

export interface SimulatedRun {
  plan: RunPlan;
  history: History;
  truth: SimTruth;
  /** Events the virtual clock ran. */
  events: number;
}

const RESOURCE_KEY = 'counter';

export async function simulateRun(options: RunOptions): Promise<SimulatedRun> {
  const plan = planRun(options);
  const o = plan.options;
  const clock = new VirtualClock();
  const root = new Prng(o.seed).fork('simulation');
  const net = new SimNetwork(clock, root.fork('network'));
  const truth: SimTruth = { grants: [], writes: [], finalData: '' };
  const service = new SimLockService(clock, tokenKindOf(o.backend), root.fork('tokens'), truth);
  const resource: SimResource = {
    row: { data: o.workload === 'lock-counter' ? '0' : '', fence: 0, mark: null },
    node: plan.resourceNode,
    counter: o.workload === 'lock-counter',
    truth,
    service,
  };
  const recorder = new Recorder(undefined, clock);
  const processes = new Set<SimSession>();
  let pids = 1000;
  const fleet: ClientFleet = {
    async spawn(worker) {
      const host = plan.hosts[worker % plan.hosts.length]!;
      const name = `client${worker + 1}-${++pids}`;
      const proc = new SimProcess(clock);
      const lock = new SimLockClient(name, host, plan.lockNodes, proc, net, service, o.callTimeoutMs, root.fork(name));
      const db = new SimDb(resource, host, proc, net, lock, o.callTimeoutMs);
      const s = new SimSession(name, host, pids, proc, clock, net, lock, db, o.resource, RESOURCE_KEY);
      processes.add(s);
      return s;
    },
  };
  let evicted: string[] = [];
  const notSimulated = async (): Promise<void> => {
    throw new Error('not simulated');
  };
  const nemesis: NemesisPort = {
    pause: async (node) => void (net.pausedNodes.add(node), net.changed()),
    resume: async (node) => void (net.pausedNodes.delete(node), net.changed()),
    kill: notSimulated,
    restart: notSimulated,
    clockOffset: notSimulated,
    loss: notSimulated,
    partition: async (grudge) => void ((net.grudge = grudge), net.changed()),
    heal: async () => void ((net.grudge = {}), net.changed()),
    evict: async (_node, _policy, onLockKeyEvicted) => {
      evicted = service.setPressure(true);
      for (const key of evicted) onLockKeyEvicted(key);
      return { maxmemoryBytes: 0, usedMemoryBytes: 0 };
    },
    // Only the key evicted at the start is counted: the simulation has no fillers to count.
    stopEvict: async () => (service.setPressure(false), { evictedKeys: evicted.length, lockKeysEvicted: Object.fromEntries(evicted.map((k) => [k, 1])), fillersWritten: 0 }),
    healAll: async () => {
      net.grudge = {};
      net.pausedNodes.clear();
      net.linkDelays.clear();
      for (const s of processes) await s.resume();
      net.changed();
    },
    leader: async () => plan.lockNodes[0],
    clientHosts: () => [...plan.hosts],
    delayLinks: (host) => simDelayLinks(net, host, o.proxies, plan.lockNodes, plan.resourceNode),
  };
  await clock.drive(interpretRun(plan, { clock, recorder, fleet, nemesis, log: () => undefined }));
  truth.finalData = resource.row.data;
  return { plan, history: recorder.ops, truth, events: clock.events };
}

/** A client host's delay links, as the real run's proxies (none unless the options ask for them). */
function simDelayLinks(net: SimNetwork, host: string, which: RunOptions['proxies'], lockNodes: readonly string[], resourceNode: string): Map<string, DelayLink> {
  const links = new Map<string, DelayLink>();
  if (which === undefined) return links;
  const nodes = [...(which !== 'lock' ? [resourceNode] : []), ...(which !== 'resource' ? lockNodes : [])];
  for (const node of nodes) links.set(node, { setDelay: async (ms) => void net.linkDelays.set(`${host} ${node}`, ms) });
  return links;
}
