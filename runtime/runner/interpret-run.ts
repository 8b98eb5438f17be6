/**
 * The one interpreter of a run plan (Jepsen's interpreter): the phases the
 * plan lists (generator/phases.ts), in its order, each through the small
 * interfaces of ports.ts.
 *
 *   main         every worker follows its planned sections, the nemesis its windows
 *   heal         heal every fault (recorded as the nemesis's heal-all), then the workers finish their open sections
 *   recover      until R ms after the heal began: leases expire, the service recovers
 *   final-reads  a worker's live client (a fresh one if none) reads what the resource ended up holding
 *
 * Production calls it with the real world (real-world.ts) and the tests with
 * the simulated one (test/sim): the same workers, critical sections, nemesis
 * runner and final read in both.
 */
import type { Phase, PhaseName } from '../../core/generator/phases.js';
import { sleepOn, type Clock } from './clock.js';
import { runFinalRead } from './final-read.js';
import { Holders } from './holders.js';
import { runNemesis } from './nemesis-runner.js';
import type { ClientFleet, LockSession, NemesisPort } from './ports.js';
import { progressLine } from './progress.js';
import type { Recorder } from './recorder.js';
import type { RunPlan } from '../../core/plan/run-plan.js';
import { StopSignal } from './stop-signal.js';
import { renewalShareOf } from '../../core/vocabulary.js';
import { runWorker, type WorkerContext } from './worker.js';

export interface World {
  clock: Clock;
  recorder: Recorder;
  fleet: ClientFleet;
  nemesis: NemesisPort;
  log: (line: string) => void;
  /** A progress line this often during the main phase (none: quiet). */
  progressEveryMs?: number;
  /** Told the history's time (ns) at which the main phase began: the plan's time 0, where its windows' `at` count from. */
  onMainStart?: (ns: number) => void;
}

/** What the phases of one run share: the clients started, and what one phase leaves for a later one. */
interface RunState {
  plan: RunPlan;
  world: World;
  sessions: Set<LockSession>;
  /** Each worker's current client, for faults aimed at one worker. */
  current: Map<number, LockSession>;
  spawn: (worker: number) => Promise<LockSession>;
  /** The workers, still finishing their sections once the main phase ended. */
  workersDone?: Promise<unknown>;
  /** The final reader's client, started early (Phase `connectDuring`). */
  reader?: Promise<LockSession>;
  /** When the heal began, on the run's clock: the recovery is counted from it. */
  healStartNs?: bigint;
  /** Cancelled on every way out (a throw in the main phase too), or its timer keeps the process alive. */
  cancelTicker: () => void;
}

type PhaseOf<N extends PhaseName> = Extract<Phase, { name: N }>;

const PHASES: { [N in PhaseName]: (state: RunState, phase: PhaseOf<N>) => Promise<void> } = {
  main: mainPhase,
  heal: healPhase,
  recover: recoverPhase,
  'final-reads': finalReadsPhase,
};

export async function interpretRun(plan: RunPlan, world: World): Promise<void> {
  const sessions = new Set<LockSession>();
  const current = new Map<number, LockSession>();
  const state: RunState = {
    plan,
    world,
    sessions,
    current,
    spawn: async (worker) => {
      const s = await world.fleet.spawn(worker);
      sessions.add(s);
      current.set(worker, s);
      return s;
    },
    cancelTicker: () => undefined,
  };
  const finalReads = plan.phases.find((p): p is PhaseOf<'final-reads'> => p.name === 'final-reads');
  try {
    for (const phase of plan.phases) {
      // A fresh reader connects ahead only when no worker's client is left to read with (finalReader).
      if (finalReads?.connectDuring === phase.name && phase !== finalReads && liveWorkerSession(state) === undefined) startReader(state);
      await (PHASES[phase.name] as (state: RunState, phase: Phase) => Promise<void>)(state, phase);
    }
  } finally {
    state.cancelTicker();
    for (const s of sessions) s.close();
  }
}

/** Every worker follows its sections and the nemesis its windows until the phase's end; then the nemesis stops. */
async function mainPhase(state: RunState, main: PhaseOf<'main'>): Promise<void> {
  const { plan, world } = state;
  const { clock, recorder, log } = world;
  const o = plan.options;
  const first = await Promise.all(plan.workers.map((w) => state.spawn(w.worker)));
  const stop = new StopSignal(clock);
  // A history that cannot be written (a full disk) ends the main phase now; runLockTest raises it after teardown.
  recorder.onFailure((err) => {
    log(`history: ${err.message} Stopping the run.`);
    stop.stop();
  });
  const holders = new Holders(clock);
  log(`main phase: ${o.timeLimitS} s, ${plan.windows.length} fault windows`);
  const startNs = recorder.now();
  world.onMainStart?.(startNs);
  const lengthMs = main.endMs - main.startMs;
  const nemesisDone = runNemesis(
    {
      nemesis: world.nemesis,
      recorder,
      holders,
      lockNodes: plan.lockNodes,
      resourceNode: plan.resourceNode,
      sessionOf: (worker) => state.current.get(worker),
      victimWaitMs: plan.victimWaitMs,
      renewal: { share: renewalShareOf(o.backend), who: `${o.backend}'s` },
      startNs,
      mainEndNs: startNs + lengthMs * 1e6,
      sleepUntilNs: (ns) => stop.sleep((ns - recorder.now()) / 1e6),
      stopped: () => stop.stopped,
      log,
    },
    plan.windows,
  );
  const workerCtx = workerContext(state, holders, stop);
  state.workersDone = Promise.all(first.map((s, i) => runWorker(workerCtx, i, s)));
  state.cancelTicker =
    world.progressEveryMs === undefined
      ? () => undefined
      : every(clock, world.progressEveryMs, () => log(progressLine(recorder, startNs, o.timeLimitS, holders)));
  await stop.sleep(lengthMs);
  stop.stop();
  await nemesisDone;
  state.cancelTicker();
}

function workerContext(state: RunState, holders: Holders, stop: StopSignal): WorkerContext {
  const { plan, world } = state;
  const o = plan.options;
  return {
    section: {
      recorder: world.recorder,
      holders,
      workload: o.workload,
      resource: o.resource,
      ttlMs: o.ttlMs,
      giveUpMs: plan.giveUpMs,
      sleep: (ms) => sleepOn(world.clock, ms),
      lockless: o.backend === 'none',
    },
    stop,
    clients: o.clients,
    sections: (worker) => plan.workers[worker]!.sections,
    spawnClient: state.spawn,
    retireClient: async (s) => {
      state.sessions.delete(s);
      s.close();
      await s.kill().catch(() => undefined);
    },
    log: world.log,
  };
}

/** Every fault healed, then the workers' open sections finished. */
async function healPhase(state: RunState): Promise<void> {
  const { recorder, nemesis, log } = state.world;
  log('heal: ending every fault');
  state.healStartNs = state.world.clock.nowNs();
  recorder.record('nemesis', 'invoke', 'heal-all', null);
  await nemesis.healAll().catch((err: unknown) => log(`heal: ${err instanceof Error ? err.message : String(err)}`));
  recorder.record('nemesis', 'info', 'heal-all', null);
  // Every fault healed: the next run's clients (a warm cluster's) load their code while the last sections finish and
  // the service recovers. Not later: the recovery is counted from the heal, and an etcd client's gRPC stack takes
  // most of a second of CPU to load, which, started after the drain, ran into the next run's reset.
  state.world.fleet.prestartNext?.();
  await state.workersDone;
}

/**
 * The recovery lasts the plan's R ms from the heal (phases.ts: [T, T + R)), the workers' last sections
 * inside it: what it waits for (faults' held-back packets delivered, paused clients' late writes landed,
 * a partitioned leader replaced) starts with the heal, not with the slowest worker's release. It was
 * counted from the workers' end, which added their drain (0.2-0.6 s: a waiter's grant, a 200 ms hold,
 * a release through raft) to every run. It never ends before the workers do: no final read beside a write.
 */
async function recoverPhase(state: RunState, recover: PhaseOf<'recover'>): Promise<void> {
  const { clock, log } = state.world;
  const lengthMs = recover.endMs - recover.startMs;
  const sinceHealMs = state.healStartNs === undefined ? 0 : Number(clock.nowNs() - state.healStartNs) / 1e6;
  const leftMs = Math.max(0, Math.round(lengthMs - sinceHealMs));
  log(`recover: ${leftMs} ms left of ${lengthMs} ms from the heal`);
  await sleepOn(clock, leftMs);
}

/** The final reader's client started (it connects meanwhile); its failure is the final read's to report. */
function startReader(state: RunState): Promise<LockSession> {
  const reader = state.spawn(state.plan.options.clients);
  reader.catch(() => undefined);
  state.reader = reader;
  return reader;
}

async function finalReadsPhase(state: RunState): Promise<void> {
  const { recorder } = state.world;
  const reader = liveWorkerSession(state) ?? state.reader ?? startReader(state);
  // No final read into a history that can no longer be written (a full disk): the run ends with that error.
  if (recorder.failure !== undefined) return;
  await runFinalRead(recorder, await reader, nextProcessId(recorder), state.plan.options.callTimeoutMs);
}

/**
 * Who reads the resource's final state: a worker's client that is still alive (every worker has finished,
 * every fault is healed, and nothing is cached between a read and the database), as Jepsen's final reads go
 * through the run's own clients; a fresh one only when none is left. Why not always a fresh process: its start
 * took 1-3 s of every run on a busy 2-core machine (etcd's gRPC stack), most of a warm run's overhead. The
 * final read is a new process id in the history either way.
 */
function liveWorkerSession(state: RunState): LockSession | undefined {
  for (const w of state.plan.workers) {
    const s = state.current.get(w.worker);
    if (s?.alive) return s;
  }
  return undefined;
}

/** `fn` every `ms` until cancelled, on the run's clock. */
function every(clock: Clock, ms: number, fn: () => void): () => void {
  let cancel = (): void => undefined;
  const arm = (): void => {
    cancel = clock.setTimer(ms, () => {
      fn();
      arm();
    });
  };
  arm();
  return () => cancel();
}

function nextProcessId(recorder: Recorder): number {
  let max = -1;
  for (const op of recorder.ops) if (typeof op.process === 'number' && op.process > max) max = op.process;
  return max + 1;
}
