/**
 * A lock run as one pure, serialisable value: the checked options, the
 * phases, the hosts, every fault window and each worker's sections. Printing
 * a plan (`fencecheck run --plan`) shows everything a run will do, and every
 * run directory keeps it as plan.json; the interpreter (interpret-run.ts)
 * only executes it, on real time against a cluster or on virtual time
 * against the simulation.
 *
 * Why the servers' names are planned here and not asked of the cluster: they
 * come from the pure cluster plan (core/cluster/cluster-plan.ts), so a plan can be made,
 * printed and simulated without root or a cluster.
 */
import { planCluster } from '../cluster/cluster-plan.js';
import { FAULT_SPECS, type FaultWindow } from '../generator/faults/registry.js';
import { planPhases, type Phase } from '../generator/phases.js';
import { nemesisSchedule, type NemesisTargets } from '../generator/nemesis-schedule.js';
import { clientPlan, type PlannedSection } from '../generator/client-plan.js';
import { UsageError } from '../errors.js';
import { aimSchedule, type Aims } from '../generator/aimed-schedule.js';
import { validateRunOptions, type RunOptions } from './run-options.js';
import { clusterBackendsOf } from '../vocabulary.js';
import { workloadOf } from '../workloads/registry.js';

export interface WorkerPlan {
  worker: number;
  /** The client host (namespace) its client processes run in. */
  host: string;
  /**
   * The sections it follows, in order (clientPlan's seeded sections): every
   * one whose acquire, by the think times alone, falls before the horizon
   * (sectionHorizonMs). A worker also spends time in its sections, so it
   * reaches a prefix of these before the main phase ends.
   */
  sections: PlannedSection[];
}

export interface RunPlan {
  options: RunOptions;
  phases: Phase[];
  /** The lock service's nodes and the resource's node, by name. */
  lockNodes: string[];
  resourceNode: string;
  /** One client host per worker; the final reader runs on the first. */
  hosts: string[];
  workers: WorkerPlan[];
  windows: FaultWindow[];
  /**
   * How long the runner waits for a client's answer before calling the op
   * indeterminate: longer than any pause the nemesis imposes (a paused client
   * answers late, and late is the truth), plus room for its own timeouts.
   */
  giveUpMs: number;
  /** How long a fault aimed at the holder (or an acquirer) waits for one. */
  victimWaitMs: number;
}

/**
 * What server faults aim at: the lock service's nodes; without a lock,
 * PostgreSQL itself (a kill or pause of the database is then the server
 * fault), and a partition cuts a client off from it.
 */
function serverTargets(o: RunOptions, lockNodes: string[], resourceNode: string): NemesisTargets {
  if (o.backend !== 'none') return { nodes: lockNodes, server: o.nemesisTarget };
  return { nodes: [resourceNode], server: o.nemesisTarget === 'leader' ? 'random' : o.nemesisTarget, partitions: ['client-from-resource'] };
}

/**
 * How far past the start a worker's planned sections reach, by their think
 * times alone: the main phase plus a margin. Why a margin: a real worker
 * spends time in each section, so it draws its sections later than the think
 * times say, but a Node timer may fire up to a millisecond early; the margin
 * (10 % and a second) outlasts that by far, and a worker that ever used up its
 * sections would stop and say so (worker.ts).
 */
export function sectionHorizonMs(timeLimitS: number): number {
  return timeLimitS * 1100 + 1000;
}

/** The most sections a plan holds over all its workers: a plan lives in memory and in plan.json. */
export const MAX_PLANNED_SECTIONS = 1_000_000;

function plannedSections(o: RunOptions): PlannedSection[][] {
  const horizon = sectionHorizonMs(o.timeLimitS);
  // Refused at once when the expected count is over (not after a million sections made); the count decides.
  if (expectedSections(o) > MAX_PLANNED_SECTIONS) throw tooManySections(o);
  let total = 0;
  return Array.from({ length: o.clients }, (_, worker) => {
    const gen = clientPlan(o.seed, worker, { workload: o.workload, rate: o.rate, hold: o.holdMs });
    const out: PlannedSection[] = [];
    for (let thought = 0; thought <= horizon;) {
      const s = gen.next().value;
      if (++total > MAX_PLANNED_SECTIONS) throw tooManySections(o);
      out.push(s);
      thought += s.thinkMs;
    }
    return out;
  });
}

function expectedSections(o: RunOptions): number {
  return Math.round((o.clients * o.rate * sectionHorizonMs(o.timeLimitS)) / 1000);
}

function tooManySections(o: RunOptions): UsageError {
  const expected = expectedSections(o);
  return new UsageError(
    `Expected a run of at most ${MAX_PLANNED_SECTIONS.toLocaleString('en-US')} planned critical sections, got about ${expected.toLocaleString('en-US')} (--clients ${o.clients} x --rate ${o.rate}/s x --time-limit ${o.timeLimitS} s)`,
    'A run keeps its plan in memory and in plan.json: lower --rate, --clients or --time-limit, or make several runs with different seeds.',
  );
}

/** The seeded schedule of a run's options (the windows of `--nemesis`). */
function seededWindows(o: RunOptions, lockNodes: string[], resourceNode: string): FaultWindow[] {
  return nemesisSchedule(
    {
      faults: o.nemesis,
      intervalMs: o.intervalMs,
      durationMs: o.durationMs,
      leaseMs: o.ttlMs,
      targets: serverTargets(o, lockNodes, resourceNode),
      ...(o.evictPolicy ? { evictPolicy: o.evictPolicy } : {}),
    },
    o.seed,
    o.timeLimitS * 1000,
  );
}

/**
 * The script of a run whose faults are aimed at lock events (a compare column
 * `client-pause@holder-read`): its seeded schedule, each aimed window waiting
 * for its event (../generator/aimed-schedule.ts). Written into the options as
 * `script`, so the run replays as a plain `--script` run.
 */
export function aimedScript(o: RunOptions, aims: Aims): FaultWindow[] {
  const cluster = planCluster({ backends: clusterBackendsOf(o.backend) });
  const lockNodes = cluster.nodes.filter((n) => n.backend !== 'postgres').map((n) => n.name);
  const resourceNode = cluster.nodes.find((n) => n.backend === 'postgres')!.name;
  const pauseMs = Math.max(o.durationMs, 2 * o.ttlMs);
  return aimSchedule(seededWindows(o, lockNodes, resourceNode), aims, {
    timeLimitMs: o.timeLimitS * 1000,
    lengthMs: (f) => (FAULT_SPECS[f].seededLength === 'pause' ? pauseMs : o.durationMs),
    leaseMs: o.ttlMs,
  });
}

export function planRun(input: RunOptions): RunPlan {
  const o = validateRunOptions(input);
  const cluster = planCluster({ backends: clusterBackendsOf(o.backend) });
  const lockNodes = cluster.nodes.filter((n) => n.backend !== 'postgres').map((n) => n.name);
  const resourceNode = cluster.nodes.find((n) => n.backend === 'postgres')!.name;
  const hosts = Array.from({ length: o.clients }, (_, i) => `c${i + 1}`);
  const windows = o.script ?? seededWindows(o, lockNodes, resourceNode);
  const pauseMs = Math.max(o.durationMs, 2 * o.ttlMs);
  const sections = plannedSections(o);
  return {
    options: o,
    phases: planPhases({ timeLimitMs: o.timeLimitS * 1000, recoverMs: o.recoverMs, finalReads: workloadOf(o.workload).accessesResource }),
    lockNodes,
    resourceNode,
    hosts,
    workers: hosts.map((host, worker) => ({ worker, host, sections: sections[worker]! })),
    windows,
    giveUpMs: 4 * o.callTimeoutMs + pauseMs + 10_000,
    // Sections start about every 1/rate s per client: a holder shows up well within a few section lengths.
    victimWaitMs: Math.min(o.intervalMs, 5000),
  };
}
