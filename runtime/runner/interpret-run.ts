/**
 * The one interpreter of a run plan (Jepsen's interpreter): the phases in
 * order, each through the small interfaces of ports.ts.
 *
 *   main         every worker follows its seeded plan, the nemesis its windows
 *   heal         heal every fault (recorded as the nemesis's heal-all)
 *   recover      nobody acts: leases expire, the service recovers
 *   final-reads  a worker's live client (a fresh one if none) reads what the resource ended up holding
 *
 * Production calls it with the real world (real-world.ts) and the tests with
 * the simulated one (test/sim): the same workers, critical sections, nemesis
 * runner and final read in both.
 */
import { clientPlan } from '../../core/generator/client-plan.js';
import type { Phase } from '../../core/generator/phases.js';
import { sleepOn, type Clock } from './clock.js';
import { runFinalRead } from './final-read.js';
import { Holders } from './holders.js';
import { runNemesis } from './nemesis-runner.js';
import type { ClientFleet, LockSession, NemesisPort } from './ports.js';
import { progressLine } from './progress.js';
import type { Recorder } from './recorder.js';
import type { RunPlan } from '../../core/plan/run-plan.js';
import { StopSignal } from './stop-signal.js';
import { runWorker, type WorkerContext } from './worker.js';

export interface World {
  clock: Clock;
  recorder: Recorder;
  fleet: ClientFleet;
  nemesis: NemesisPort;
  log: (line: string) => void;
  /** A progress line this often during the main phase (none: quiet). */
  progressEveryMs?: number;
}

export async function interpretRun(plan: RunPlan, world: World): Promise<void> {
  const { clock, recorder, fleet, nemesis, log } = world;
  const o = plan.options;
  const phase = (name: Phase['name']): Phase => plan.phases.find((p) => p.name === name)!;
  const sessions = new Set<LockSession>();
  /** Each worker's current client, for faults aimed at one worker. */
  const current = new Map<number, LockSession>();
  const spawn = async (worker: number): Promise<LockSession> => {
    const s = await fleet.spawn(worker);
    sessions.add(s);
    current.set(worker, s);
    return s;
  };
  // Cancelled on every way out (a throw in the main phase too), or its timer keeps the process alive.
  let cancelTicker = (): void => undefined;
  try {
    const first = await Promise.all(plan.workers.map((w) => spawn(w.worker)));
    const stop = new StopSignal(clock);
    // A history that cannot be written (a full disk) ends the main phase now; runLockTest raises it after teardown.
    recorder.onFailure((err) => {
      log(`history: ${err.message} Stopping the run.`);
      stop.stop();
    });
    const holders = new Holders(clock);
    const workerCtx: WorkerContext = {
      section: { recorder, holders, workload: o.workload, resource: o.resource, ttlMs: o.ttlMs, giveUpMs: plan.giveUpMs, sleep: (ms) => sleepOn(clock, ms), lockless: o.backend === 'none' },
      stop,
      clients: o.clients,
      plan: (worker) => clientPlan(o.seed, worker, plan.workers[worker]!.sections),
      spawnClient: spawn,
      retireClient: async (s) => {
        sessions.delete(s);
        s.close();
        await s.kill().catch(() => undefined);
      },
      log,
    };

    const main = phase('main');
    log(`main phase: ${o.timeLimitS} s, ${plan.windows.length} fault windows`);
    const startNs = recorder.now();
    const nemesisDone = runNemesis(
      {
        nemesis,
        recorder,
        holders,
        lockNodes: plan.lockNodes,
        resourceNode: plan.resourceNode,
        sessionOf: (worker) => current.get(worker),
        victimWaitMs: plan.victimWaitMs,
        startNs,
        mainEndNs: startNs + (main.endMs - main.startMs) * 1e6,
        sleepUntilNs: (ns) => stop.sleep((ns - recorder.now()) / 1e6),
        stopped: () => stop.stopped,
        log,
      },
      plan.windows,
    );
    const workersDone = Promise.all(first.map((s, i) => runWorker(workerCtx, i, s)));
    cancelTicker = world.progressEveryMs === undefined ? () => undefined : every(clock, world.progressEveryMs, () => log(progressLine(recorder, startNs, o.timeLimitS, holders)));
    await stop.sleep(main.endMs - main.startMs);
    stop.stop();
    await nemesisDone;
    cancelTicker();

    log('heal: ending every fault');
    recorder.record('nemesis', 'invoke', 'heal-all', null);
    await nemesis.healAll().catch((err: unknown) => log(`heal: ${err instanceof Error ? err.message : String(err)}`));
    recorder.record('nemesis', 'info', 'heal-all', null);
    await workersDone;

    const recover = phase('recover');
    log(`recover: ${recover.endMs - recover.startMs} ms`);
    await sleepOn(clock, recover.endMs - recover.startMs);
    // No final read into a history that can no longer be written (a full disk): the run ends with that error.
    if (o.workload !== 'mutex' && recorder.failure === undefined) {
      await runFinalRead(recorder, await finalReader(plan, current, spawn), nextProcessId(recorder), o.callTimeoutMs);
    }
  } finally {
    cancelTicker();
    for (const s of sessions) s.close();
  }
}

/**
 * Who reads the resource's final state: a worker's client that is still alive (every worker has finished,
 * every fault is healed, and nothing is cached between a read and the database), as Jepsen's final reads go
 * through the run's own clients; a fresh one only when none is left. Why not always a fresh process: its start
 * took 1-3 s of every run on a busy 2-core machine (etcd's gRPC stack), most of a warm run's overhead. The
 * final read is a new process id in the history either way.
 */
async function finalReader(plan: RunPlan, current: ReadonlyMap<number, LockSession>, spawn: (worker: number) => Promise<LockSession>): Promise<LockSession> {
  for (const w of plan.workers) {
    const s = current.get(w.worker);
    if (s?.alive) return s;
  }
  return spawn(plan.options.clients);
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
