/**
 * `runLockTest(options)`: one lock run from nothing to a verdict, as a few
 * composed steps:
 *
 *   plan      planRun: the options checked, phases, hosts, fault windows,
 *             every worker's sections (pure); kept as plan.json
 *   cluster   the lock service and PostgreSQL, one namespace per node and one
 *             client host per worker (started, or taken reset from a warm
 *             pool: warm-pool.ts); the resource row and the delay proxies
 *   interpret interpretRun over the real world's ports (real-world.ts): the
 *             same interpreter the simulation tests run on virtual time
 *   teardown  always, also on error (a warm pool's cluster: by the pool)
 *   analysis  the workload's checkers over the recorded history
 *   files     results.json and the report
 */
import { faultEvents } from '../../core/generator/fault-events.js';
import type { LockCheckResult } from '../../core/checkers/lock/verdict.js';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { ClusterBusyError } from '../../runtime/hosts/cluster-errors.js';
import type { DelayProxy } from '../../runtime/nemesis/delay-proxy-handle.js';
import { join } from 'node:path';
import { startCluster, type StartClusterOptions } from '../../runtime/cluster/start-cluster.js';
import { writeRunReport } from '../../src/report/write-run-report.js';
import { prepareResource } from '../../runtime/clients/resource.js';
import type { ClientConfig } from '../../core/client-protocol.js';
import { runResults } from '../../core/analyse/run-results.js';
import { RunStore } from '../../runtime/store/run-store.js';
import { RUN_FILES } from '../../core/run-files/run-files.js';
import type { TestJson } from '../../core/run-files/test-json.js';
import { ClientLauncher } from '../../runtime/runner/client-command.js';
import { realClock } from '../../runtime/runner/clock.js';
import { interpretRun } from '../../runtime/runner/interpret-run.js';
import type { NemesisPort } from '../../runtime/runner/ports.js';
import { realFleet, realNemesis, type RealFleet, type RealFleetOptions } from '../../runtime/runner/real-world.js';
import { Recorder } from '../../runtime/runner/recorder.js';
import { runHarnessParts, watchHarness } from '../../runtime/runner/harness-watch.js';
import { planRun, type RunPlan } from '../../core/plan/run-plan.js';
import { replayCommand, type RunOptions } from '../../core/plan/run-options.js';
import { fencecheckVersion, serverVersions } from '../../runtime/runner/versions.js';
import { clusterBackendsOf, isCounterWorkload } from '../../core/vocabulary.js';
import { systemClusterOptions } from '../../core/systems/registry.js';
import { clientConfigOf, RUN_LOCK_NAME } from '../../core/client-config.js';
import type { ClusterRecord } from '../../core/run-files/cluster-record.js';
import type { WarmPool } from '../../runtime/runner/warm-pool.js';

export interface RunResult extends LockCheckResult {
  runDir: string;
  /** report.html, when it could be written. */
  reportPath?: string;
  replay: string;
  durationMs: number;
}

export interface RunHooks {
  /** Progress and log lines for a person. */
  log?: (line: string) => void;
  /** Wait this long for another fencecheck cluster on the machine to end (default: fail at once). */
  busyTimeoutMs?: number;
  /** Take the cluster from this pool (reset and checked) and leave it there after the run; default: a fresh cluster, torn down after. */
  warm?: WarmPool;
  /** The slot of a fresh cluster (core/cluster/slots.ts; default 0); a warm pool's cluster is in the pool's slot. */
  slot?: number;
}

const RESOURCE_KEY = 'counter';

export async function runLockTest(input: RunOptions, hooks: RunHooks = {}): Promise<RunResult> {
  const plan = planRun(input);
  const o = plan.options;
  const log = hooks.log ?? (() => undefined);
  const started = Date.now();
  const name = o.name ?? `${o.backend}-${o.resource}-${o.workload}`;
  const store = RunStore.create(o.resultsDir, name, new Date(started));
  const test = await testJsonOf(o, name, started);
  store.writeTest(test);
  store.writePlan(plan);

  log(`fencecheck run: ${name}, seed ${o.seed}, ${o.timeLimitS} s, ${o.clients} clients, nemesis ${o.nemesis.join(',') || 'none'}`);
  const recorder = new Recorder(store.historyPath);
  // The built-in client, or the --client command (docs/client-protocol.md).
  const launcher = new ClientLauncher({ ...(o.client !== undefined ? { command: o.client } : {}), access: { mode: o.resource, key: RESOURCE_KEY }, log });
  const unmark = markInterruptions(store);
  try {
    await executeOnCluster(plan, { store, test, recorder, launcher, hooks, log });
  } catch (err) {
    unmark();
    if (err instanceof ClusterBusyError) {
      // Refused before it began: it leaves nothing behind, not even its directory.
      recorder.close();
      store.discard();
      throw err;
    }
    // The run directory holds the history so far and the logs: the error says where. A history that could not
    // be written (a full disk) is the first cause: what failed after it (a log, a client's start) follows from it.
    throw store.failed(recorder.failure ?? err);
  }
  // A full disk: the history keeps every whole line written before it; no verdict from a cut history.
  if (recorder.failure) {
    unmark();
    throw store.failed(recorder.failure);
  }
  const result = await writeRunFiles(plan, { store, test, recorder, launcher, log }, Date.now() - started);
  // Interrupted until here (teardown, checks and the report included): a signal before now stopped an unfinished run.
  unmark();
  return result;
}

/** test.json as the run starts: every option, the name, the start, the versions, the replay command. */
async function testJsonOf(o: RunOptions, name: string, started: number): Promise<TestJson> {
  return {
    ...o,
    name,
    startedAt: new Date(started).toISOString(),
    versions: { fencecheck: fencecheckVersion(), node: process.version, ...(await serverVersions(clusterBackendsOf(o.backend))) },
    replay: replayCommand(o),
  };
}

/** What the steps of one run share: its store and test.json, the history's recorder, the client launcher. */
interface RunParts {
  store: RunStore;
  test: TestJson;
  recorder: Recorder;
  launcher: ClientLauncher;
  log: (line: string) => void;
}

/** The cluster taken, the plan interpreted over the real world, the cluster torn down (a warm pool's: kept). */
async function executeOnCluster(plan: RunPlan, parts: RunParts & { hooks: RunHooks }): Promise<void> {
  const { store, test, recorder, launcher, hooks, log } = parts;
  let cluster: Cluster | undefined;
  try {
    const taken = await takeRunCluster(plan, store.dir, hooks, log);
    cluster = taken.cluster;
    test.cluster = taken.record;
    store.writeTest(test);
    // Said once the cluster is ours: a run refused as busy removes its directory, which must never have been shown.
    log(`run directory: ${store.dir}`);
    // On a warm pool's cluster another run follows: its clients start during this one's recovery (spares).
    const spares = hooks.warm ? { backend: plan.options.backend, workers: plan.options.clients } : undefined;
    const world = await realWorldOf(
      cluster,
      plan,
      { launcher, spares },
      (n) => join(store.logsDir, `${n}.log`),
      (versions) => Object.assign(test.versions, versions),
    );
    // A proxy or the resource's server that dies mid-run is a failed fault in the history (harness-watch.ts);
    // without a lock service the server faults strike the resource's server, so its death is planned, not watched.
    const stopWatch = watchHarness(runHarnessParts(cluster, world.proxies, plan.resourceNode, plan.options.backend === 'none'), recorder, log);
    // The plan's time 0 on the history's clock: the report's story says how far apart the two are.
    const onMainStart = (ns: number): void => void (test.mainStartNs = Math.round(ns));
    await interpretRun(plan, { clock: realClock, recorder, fleet: world.fleet, nemesis: world.nemesis, log, progressEveryMs: 5000, onMainStart }).finally(
      stopWatch,
    );
    // What `fencecheck check RUN_DIR` needs to judge this history again as it was judged here.
    if (launcher.foreign && launcher.ready) Object.assign(test, { clientToken: launcher.ready.token, clientViolations: launcher.violations });
    if (world.fleet.sparesTaken > 0 && test.cluster) test.cluster.clientsFromSpares = world.fleet.sparesTaken;
    store.writeTest(test);
  } finally {
    recorder.close();
    if (cluster && !hooks.warm) await cluster.teardown().catch((err: unknown) => log(`teardown: ${err instanceof Error ? err.message : String(err)}`));
  }
}

/** The analysis and the files after a run: test.json's client crashes, results.json, the report. */
async function writeRunFiles(plan: RunPlan, parts: RunParts, durationMs: number): Promise<RunResult> {
  const { store, test, recorder, launcher, log } = parts;
  // Every client's crashes, built-in or foreign, the teardown's included, for `check RUN_DIR` (core/checkers/lock/evidence.ts).
  Object.assign(test, { clientCrashes: [...launcher.crashes] });
  store.writeTest(test);
  // A foreign client's own token kind; a client that broke the protocol, or any that crashed, makes the verdict unknown at best.
  const client = launcher.foreign ? { token: launcher.ready?.token, violations: launcher.violations } : { violations: [] };
  const results = runResults(recorder.ops, plan.options, faultEvents(plan.windows), durationMs, { ...client, crashes: test.clientCrashes });
  store.writeResults(results);
  const report = await writeRunReport(store.dir).catch((err: unknown) => {
    // The verdict stands without its picture; say why the picture is missing.
    log(`report: not written: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  });
  return {
    valid: results.valid,
    verdicts: results.checkers,
    deciding: results.deciding,
    runDir: store.dir,
    replay: test.replay,
    durationMs,
    ...(report ? { reportPath: report } : {}),
  };
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * A signal before the run has written its files (teardown, checks and the
 * report included) marks test.json `interrupted` at once (the cluster's teardown
 * hooks then tear down and end the process), so the history is never taken
 * for a finished run's. When nothing else handles the
 * signal (before the cluster exists), it is raised again to take its course.
 */
function markInterruptions(store: RunStore): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    stop();
    try {
      store.markInterrupted(signal, new Date());
    } catch {
      // The mark is best effort on the way out (a full disk, say); the teardown matters more.
    }
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const stop = (): void => {
    for (const s of SIGNALS) process.off(s, onSignal);
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  return stop;
}

/** The lock service and PostgreSQL (PostgreSQL alone with --backend none), one namespace per node and one client host per worker: from the warm pool, or started. */
async function takeRunCluster(
  plan: RunPlan,
  runDir: string,
  hooks: RunHooks,
  log: (line: string) => void,
): Promise<{ cluster: Cluster; record: ClusterRecord }> {
  const opts = runClusterOptions(plan, runDir, hooks, log);
  if (hooks.warm) {
    const { cluster, record } = await hooks.warm.take(opts, log);
    return { cluster, record: { ...record, logsDir: join(cluster.runDir, RUN_FILES.logs) } };
  }
  const t0 = Date.now();
  const cluster = await startCluster(opts);
  return {
    cluster,
    record: { fresh: true, reusedAfterRuns: 0, startMs: Date.now() - t0, resetMs: 0, cleanCheck: null, logsDir: join(cluster.runDir, RUN_FILES.logs) },
  };
}

/** What startCluster is asked for a run (the warm pool compares these, clusterKey). */
export function runClusterOptions(plan: RunPlan, runDir: string, hooks: RunHooks, log: (line: string) => void): StartClusterOptions {
  const o = plan.options;
  const backends = clusterBackendsOf(o.backend);
  const backend = backends[0];
  return {
    backends,
    clientHosts: plan.hosts,
    runDir,
    ...(backend === 'redis' ? { redis: { persistence: o.redisPersistence } } : {}),
    ...(backend === 'redlock' ? { redlock: { persistence: o.redisPersistence } } : {}),
    ...systemClusterOptions(o),
    log: (l) => log(`cluster: ${l}`),
    ...(hooks.busyTimeoutMs !== undefined ? { busyTimeoutMs: hooks.busyTimeoutMs } : {}),
    ...(hooks.slot !== undefined ? { slot: hooks.slot } : {}),
    ...(o.provider ? { provider: o.provider } : {}),
  };
}

/** The resource row prepared, the delay proxies started, and the interpreter's ports over the cluster. */
async function realWorldOf(
  c: Cluster,
  plan: RunPlan,
  clients: Pick<RealFleetOptions, 'launcher' | 'spares'>,
  logPath: (name: string) => string,
  onVersions: (v: Record<string, string>) => void,
): Promise<{ fleet: RealFleet; nemesis: NemesisPort; proxies: Map<string, Map<string, DelayProxy>> }> {
  const o = plan.options;
  const backends = clusterBackendsOf(o.backend);
  const pg = c.endpoints('postgres')[0]!;
  const pgConfig = { host: pg.host, port: pg.port, user: 'postgres', database: 'postgres' };
  await prepareResource(pgConfig, RESOURCE_KEY, isCounterWorkload(o.workload) ? '0' : '', undefined, { idleInTransactionTimeoutMs: o.idleTxTimeoutMs });
  const proxies = await startProxies(c, plan.hosts, o.proxies, plan.lockNodes, pg.node);
  const config = (client: number, host: string): ClientConfig => {
    const resourceProxy = proxies.get(host)?.get(pg.node);
    return clientConfigOf({
      client,
      system: o,
      // Without a lock service (--backend none), no endpoints: the only server is the resource.
      lockEndpoints: (backends.length > 1 ? c.clientEndpoints(backends[0]!) : []).map((e) => {
        const p = proxies.get(host)?.get(e.node);
        return p ? `${p.host}:${p.port}` : `${e.host}:${e.port}`;
      }),
      lockBase: RUN_LOCK_NAME,
      resource: o.resource,
      pg: resourceProxy ? { ...pgConfig, host: resourceProxy.host, port: resourceProxy.port } : pgConfig,
      resourceKey: RESOURCE_KEY,
      callTimeoutMs: o.callTimeoutMs,
      sessionTimeoutMs: o.ttlMs,
      checkHold: o.checkHold,
    });
  };
  return { fleet: realFleet({ cluster: c, hosts: plan.hosts, config, ...clients, logPath, onVersions }), nemesis: realNemesis(c, o.backend, proxies), proxies };
}

/**
 * Delay proxies, one per client host and server it should slow, with no delay
 * until a scripted `delay` fault: `host → node → proxy`. Each runs inside its
 * client's namespace, so that client's partitions still apply to the link.
 */
async function startProxies(
  c: Cluster,
  hosts: readonly string[],
  which: RunOptions['proxies'],
  lockNodes: readonly string[],
  resourceNode: string,
): Promise<Map<string, Map<string, DelayProxy>>> {
  const out = new Map<string, Map<string, DelayProxy>>();
  if (which === undefined) return out;
  const targets = [...(which !== 'lock' ? [resourceNode] : []), ...(which !== 'resource' ? lockNodes : [])];
  for (const host of hosts) {
    const byNode = new Map<string, DelayProxy>();
    for (const node of targets)
      byNode.set(node, await c.nemesis.delayProxy({ on: host, to: node, delayMs: 0, direction: 'both', logPath: c.logPath(`proxy-${host}-${node}`) }));
    out.set(host, byNode);
  }
  return out;
}
