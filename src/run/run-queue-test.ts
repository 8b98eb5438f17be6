/**
 * `runQueueTest(options)`: one queue run from nothing to a verdict
 * (`fencecheck run --workload queue`, docs/queues.md):
 *
 *   plan      planQueueRun: each job's enqueue moment, the fault windows (pure)
 *   cluster   the queue's server (Redis, or a PostgreSQL of its own) and the
 *             resource's PostgreSQL, one namespace per node, a host for the
 *             producer and one per worker; the resource's tables emptied
 *   programs  the library's producer and workers (clients/…), each announcing
 *             itself; the resource mode is one SQL statement they are given
 *   main      the producer enqueues the planned jobs; each fault window SIGSTOPs
 *             the first worker that takes a job after it opens, SIGCONT after
 *             (client-pause), or kills it (kill -9) and starts it again after
 *             (client-kill)
 *   drain     faults healed, the queue given time to finish every job
 *   final     the programs stopped, the resource's done records and counter read
 *   verdict   total-queue over the recorded history, evidence, outcome
 *
 * The history is Jepsen's queue history plus the job's effect
 * (docs/lock-workloads.md, "queue"): every delivery of a job is its own
 * logical process (take, effect, complete), so a job a stalled worker still
 * runs and the same job run again elsewhere never share one.
 */
import { join } from 'node:path';
import pg from 'pg';
import type { History, Value } from '../../core/history/op.js';
import { UsageError } from '../../core/errors.js';
import { planQueueRun, type QueuePlan } from '../../core/queue/queue-plan.js';
import { libraryOf, queueReplayCommand, validateQueueOptions, type QueueRunOptions } from '../../core/queue/queue-options.js';
import { EFFECT_SQL, FINAL_READ_SQL, PREPARE_QUEUE_RESOURCE } from '../../core/queue/queue-resource-sql.js';
import type { QueueLibrary } from '../../core/queue/queue-libraries.js';
import { PYTHON } from '../../runtime/cluster/doctor-python.js';
import { queueResults, type QueueResults } from '../../core/queue/queue-outcome.js';
import type { WorkerEvent } from '../../core/queue/queue-events.js';
import type { Cluster } from '../../runtime/cluster/cluster.js';
import { startCluster } from '../../runtime/cluster/start-cluster.js';
import { ClusterBusyError } from '../../runtime/hosts/cluster-errors.js';
import { projectRoot } from '../../runtime/hosts/paths.js';
import { parseClientCommand } from '../../runtime/runner/client-command-line.js';
import { Recorder } from '../../runtime/runner/recorder.js';
import { fencecheckVersion, serverVersions } from '../../runtime/runner/versions.js';
import { QueueProgram } from '../../runtime/queue/queue-program.js';
import type { DelayProxy } from '../../runtime/nemesis/delay-proxy-handle.js';
import { SENTINEL_MASTER_NAME } from '../../runtime/clients/sentinel-probes.js';
import { RunStore } from '../../runtime/store/run-store.js';
import type { QueueReportInput } from '../report/render-queue-report-html.js';
import { writeQueueReportHtml } from '../report/write-queue-report.js';
import type { BackendName } from '../../core/cluster/cluster-plan.js';

export interface QueueRunResult {
  results: QueueResults;
  runDir: string;
  replay: string;
  durationMs: number;
  /** What the programs announced (their ready lines): the library and its attempt number's field, or null for none. */
  announced: { library: string; attempt: string | null };
  /** The recorded history (history.jsonl's ops), and the lines that broke the protocol. */
  history: History;
  violations: string[];
  /** report.html's path, unless it could not be written (said in the log). */
  report?: string;
}

const QUEUE_NAME = 'fc-jobs';

/**
 * With effect-kill asked for, each handler holds this long after its effect before it returns: the window in
 * which the runner reads the effect's line and kills the worker before the library completes the job (without
 * it the kill raced the completion and mostly lost). Enough for a line and a kill -9, short beside a lock.
 */
const AFTER_EFFECT_MS = 300;

function afterEffectMs(o: QueueRunOptions): number {
  return o.nemesis.includes('effect-kill') ? AFTER_EFFECT_MS : 0;
}
const READY_TIMEOUT_MS = 30_000;

/** How a caller runs it: where its lines go, how long to wait for a busy slot, and which slot (core/cluster/slots.ts; default 0). */
export interface QueueRunHooks {
  log?: (line: string) => void;
  busyTimeoutMs?: number;
  slot?: number;
}

export async function runQueueTest(o: QueueRunOptions, hooks: QueueRunHooks = {}): Promise<QueueRunResult> {
  validateQueueOptions(o);
  const plan = planQueueRun(o);
  const log = hooks.log ?? (() => undefined);
  const started = Date.now();
  const name = o.name ?? `${o.backend}-${o.client.replace(/[^a-z0-9-]+/gi, '_').slice(0, 40)}-${o.resource}-queue`;
  const store = RunStore.create(o.resultsDir, name, new Date(started));
  const backends = queueClusterBackends(o);
  const test: Record<string, unknown> & { versions: Record<string, string>; replay: string } = {
    ...o,
    workload: 'queue',
    name,
    startedAt: new Date(started).toISOString(),
    versions: { fencecheck: fencecheckVersion(), node: process.version, ...(await serverVersions(backends)) },
    replay: queueReplayCommand(o),
  };
  store.writeQueueFile('test', test);
  store.writeQueueFile('plan', plan);
  log(
    `fencecheck run: ${name}, seed ${o.seed}, ${o.timeLimitS} s, ${o.workers} workers, ${plan.jobs.length} jobs, ${plan.stalls.length} fault window(s) (${windowKinds(plan)})`,
  );
  const recorder = new Recorder(store.historyPath);
  const violations: string[] = [];
  let cluster: Cluster | undefined;
  let announced: QueueRunResult['announced'] = { library: o.client, attempt: null };
  try {
    cluster = await startCluster({
      backends,
      clientHosts: [plan.producer, ...plan.workers],
      runDir: store.dir,
      log: (l) => log(`cluster: ${l}`),
      ...(hooks.busyTimeoutMs !== undefined ? { busyTimeoutMs: hooks.busyTimeoutMs } : {}),
      ...(hooks.slot !== undefined ? { slot: hooks.slot } : {}),
      ...(o.backend === 'redis' ? { redis: { persistence: o.redisPersistence ?? 'none' } } : {}),
    });
    log(`run directory: ${store.dir}`);
    const run = await startPrograms(cluster, o, plan, store, (v) => {
      violations.push(v);
      log(`protocol: ${v}`);
    });
    test['library'] = run.library;
    test['attempt'] = run.attempt;
    announced = { library: run.library, attempt: run.attempt };
    store.writeQueueFile('test', test);
    await mainPhase(run, plan, o, recorder, log);
    await drain(run, o, log);
    run.supervising = false;
    for (const p of run.programs) await p.stop(3000);
    for (const p of run.programs) if (p.exitedUnasked !== undefined) violations.push(`${p.name} ended without being asked (${p.exitedUnasked})`);
    await finalRead(run.pg, recorder, run.nextProcess());
  } catch (err) {
    if (err instanceof ClusterBusyError) {
      recorder.close();
      store.discard();
      throw err;
    }
    recorder.close();
    throw store.failed(err);
  } finally {
    recorder.close();
    if (cluster) await cluster.teardown().catch((err: unknown) => log(`teardown: ${err instanceof Error ? err.message : String(err)}`));
  }
  const durationMs = Date.now() - started;
  const results = queueResults(recorder.ops, plan.stalls.length, durationMs, violations);
  store.writeResults(results);
  const report = writeOwnReport(store.dir, { ...o, name, library: announced.library, replay: test.replay }, results, recorder.ops, log);
  return { results, runDir: store.dir, replay: test.replay, durationMs, announced, history: recorder.ops, violations, ...(report ? { report } : {}) };
}

/** report.html from the run's own results (its protocol violations included, which the history does not hold); the verdict stands without it. */
function writeOwnReport(
  dir: string,
  facts: QueueReportInput['facts'],
  results: QueueResults,
  history: History,
  log: (line: string) => void,
): string | undefined {
  try {
    return writeQueueReportHtml(dir, facts, results, history);
  } catch (err) {
    log(`report: not written: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/**
 * The queue's server and the resource's PostgreSQL: a PostgreSQL queue gets one of its own (pgl1), apart from the
 * resource's pg1; a Sentinel-backed queue the lock backend's master, two replicas and three Sentinels.
 */
export function queueClusterBackends(o: Pick<QueueRunOptions, 'backend'>): BackendName[] {
  return [o.backend === 'postgres' ? 'pg-advisory' : o.backend, 'postgres'];
}

interface LiveRun {
  programs: QueueProgram[];
  producer: QueueProgram;
  workers: QueueProgram[];
  library: string;
  /** The field the attempt number comes from, as the first ready line announced it; null for none. */
  attempt: string | null;
  pg: pg.ClientConfig;
  /** Deliveries taken and not yet answered by their completion, by `worker|job|attempt`. */
  open: Map<string, number>;
  /** Jobs whose enqueue was answered ok, and those whose last delivery completed (ok or refused). */
  enqueued: Set<number>;
  finished: Set<number>;
  /** Called on each take: the stall windows wait on it. */
  takeListeners: ((worker: QueueProgram) => void)[];
  /** Called when a delivery's effect is answered ok (landed), before its completion: effect-kill waits on it. */
  effectListeners: ((worker: QueueProgram) => void)[];
  nextProcess: () => number;
  /** A killed worker's program started again on its host (client-kill), as a supervisor would. */
  restart: (worker: QueueProgram) => QueueProgram;
  /** Whether a worker that ends on its own is started again (from the main phase until the programs are stopped). */
  supervising: boolean;
  /** The supervisor's next wait for each worker that ended on its own, by name (reset once it takes a job). */
  backoffMs: Map<string, number>;
  /** Workers that ended on their own and are not yet ready again. */
  down: Set<string>;
  /** How many times a worker that ended on its own was ready again (the drain counts it as progress). */
  backAgain: number;
  /** The queue's server node (server-kill, client-partition) and the cluster's nemesis that kills, restarts and cuts. */
  queueNode: string;
  currentQueueNode: () => Promise<string>;
  nemesis: Cluster['nemesis'];
  /** Each worker's delay proxy to the queue's server, by host (client-delay runs only). */
  proxies: Map<string, DelayProxy>;
}

async function startPrograms(c: Cluster, o: QueueRunOptions, plan: QueuePlan, store: RunStore, onViolation: (v: string) => void): Promise<LiveRun> {
  const pgNode = c.endpoints('postgres')[0]!;
  const pgConfig = { host: pgNode.host, port: pgNode.port, user: 'postgres', database: 'postgres' };
  await prepareQueueResource(pgConfig);
  const serverNodes = c.endpoints(queueClusterBackends(o)[0]);
  // Behind Sentinels the programs are given the Sentinels (and the master's name), never a data node.
  const sentinels = serverNodes.filter((n) => n.role === 'sentinel');
  const server = serverNodes.find((n) => n.role !== 'sentinel')!;
  const lib = libraryOf(o);
  const argv = lib !== undefined ? programArgv(lib) : parseClientCommand(o.client);
  // client-delay: each worker reaches the queue's server through a delay proxy on its own host (no delay until a window).
  const proxies = new Map<string, DelayProxy>();
  if (o.nemesis.includes('client-delay'))
    for (const w of plan.workers)
      proxies.set(w, await c.nemesis.delayProxy({ on: w, to: server.node, delayMs: 0, direction: 'both', logPath: c.logPath(`proxy-${w}-${server.node}`) }));
  // Behind Sentinels: the Sentinels and the master's name, which the programs connect through (the data node's
  // address stays for a program that cannot; client-delay is refused there). They were missing until 2026-12-06:
  // the programs connected to the first master directly and never followed a failover.
  const viaSentinels = sentinels.length > 0 ? { sentinels: sentinels.map((n) => ({ host: n.host, port: n.port })), name: SENTINEL_MASTER_NAME } : {};
  const queueOf = (host: string): { host: string; port: number; url: string } => {
    const p = proxies.get(host);
    return p === undefined
      ? { host: server.host, port: server.port, url: server.url, ...viaSentinels }
      : { host: p.host, port: p.port, url: server.url.replace(`${server.host}:${server.port}`, `${p.host}:${p.port}`) };
  };
  const config = (role: 'producer' | 'worker', worker: string): Record<string, unknown> => ({
    protocol: 1,
    role,
    worker,
    queue: queueOf(worker),
    queueName: QUEUE_NAME,
    lockMs: o.lockMs,
    jobMs: o.jobMs,
    callTimeoutMs: o.callTimeoutMs,
    pg: pgConfig,
    effectSql: EFFECT_SQL[o.resource],
    afterEffectMs: afterEffectMs(o),
  });
  let restarts = 0;
  const start = (role: 'producer' | 'worker', host: string, logName = host): QueueProgram =>
    new QueueProgram({
      host: c.clientHost(host),
      argv,
      name: host,
      config: config(role, host),
      logPath: join(store.logsDir, `${logName}.log`),
      readyTimeoutMs: READY_TIMEOUT_MS,
      onViolation,
    });
  const producer = start('producer', plan.producer);
  const workers = plan.workers.map((w) => start('worker', w));
  const programs = [producer, ...workers];
  const readies = await Promise.all(programs.map((p) => p.whenReady()));
  const ready = readies[0]!;
  if (o.resource === 'attempt-fence' && readies.some((r) => r.attempt === null))
    throw new UsageError(
      `Cannot run \`--resource attempt-fence\` with \`--client ${o.client}\`: its program announced no attempt number (ready line "attempt": null)`,
      "Run --resource idempotent (a job id is all it needs), or have the worker send its library's attempt or delivery count.",
    );
  let process = 0;
  return {
    programs,
    producer,
    workers,
    library: ready.library,
    attempt: ready.attempt,
    pg: pgConfig,
    open: new Map(),
    enqueued: new Set(),
    finished: new Set(),
    takeListeners: [],
    effectListeners: [],
    nextProcess: () => process++,
    restart: (w) => start('worker', w.name, `${w.name}.restart-${++restarts}`),
    supervising: false,
    backoffMs: new Map(),
    down: new Set(),
    backAgain: 0,
    queueNode: server.node,
    // Behind Sentinels the queue's server is whichever master they name when a window opens (a kill of it: a failover).
    currentQueueNode: async () => (sentinels.length > 0 ? ((await c.leader('redis-sentinel')) ?? server.node) : server.node),
    nemesis: c.nemesis,
    proxies,
  };
}

function programArgv(lib: QueueLibrary): string[] {
  const runner = lib.language === 'python' ? PYTHON : process.execPath;
  return [runner, join(projectRoot(), lib.program), ...(lib.args ?? [])];
}

async function prepareQueueResource(config: pg.ClientConfig): Promise<void> {
  const c = new pg.Client({ ...config, connectionTimeoutMillis: 10_000, query_timeout: 10_000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    for (const sql of PREPARE_QUEUE_RESOURCE) await c.query(sql);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** The producer's enqueues at their planned moments and the stall windows, side by side until the time limit. */
async function mainPhase(run: LiveRun, plan: QueuePlan, o: QueueRunOptions, recorder: Recorder, log: (line: string) => void): Promise<void> {
  for (const w of run.workers) w.onEvent((e) => recordEvent(run, w, e, recorder));
  run.supervising = true;
  for (const w of run.workers) supervise(run, w, recorder, log);
  const t0 = Date.now();
  const horizon = t0 + o.timeLimitS * 1000;
  const progress = setInterval(
    () =>
      log(
        `queue: ${Math.round((Date.now() - t0) / 1000)}s/${o.timeLimitS}s, ${run.enqueued.size} enqueued, ${run.finished.size} finished, ${run.open.size} in flight`,
      ),
    5000,
  );
  try {
    await Promise.all([produce(run, plan, o, recorder, t0), ...plan.stalls.map((s) => stall(run, s, t0, horizon, recorder, log))]);
  } finally {
    clearInterval(progress);
  }
}

async function produce(run: LiveRun, plan: QueuePlan, o: QueueRunOptions, recorder: Recorder, t0: number): Promise<void> {
  let process = run.nextProcess();
  for (const { job, atMs } of plan.jobs) {
    await sleepUntil(t0 + atMs);
    recorder.record(process, 'invoke', 'enqueue', job);
    const a = await run.producer.enqueue(job, job, o.callTimeoutMs);
    recorder.record(process, a.type, 'enqueue', job, a.error !== undefined ? { error: a.error } : {});
    if (a.type === 'ok') run.enqueued.add(job);
    // Jepsen's rule: a process whose op is indeterminate is retired; the next op gets a new one.
    if (a.type === 'info') process = run.nextProcess();
  }
}

/**
 * One window: the first worker to take a job after it opens is stopped (SIGSTOP) for the stall, then
 * continued; or killed (kill -9) and, after the window, started again on its host (client-kill).
 */
async function stall(
  run: LiveRun,
  s: QueuePlan['stalls'][number],
  t0: number,
  horizon: number,
  recorder: Recorder,
  log: (line: string) => void,
): Promise<void> {
  await sleepUntil(t0 + s.atMs);
  if (s.fault === 'server-kill') return serverKillWindow(run, await run.currentQueueNode(), s.durationMs, recorder, log);
  // effect-kill waits for an effect to land (the worker then holds a job whose completion has not been sent); the
  // others for a take (a worker holding a job).
  const listeners = s.fault === 'effect-kill' ? run.effectListeners : run.takeListeners;
  const victim = await new Promise<QueueProgram | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), Math.max(0, horizon - Date.now()));
    listeners.push((w) => {
      clearTimeout(timer);
      resolve(w);
    });
  });
  if (victim === undefined) {
    const f =
      s.fault === 'kill' || s.fault === 'effect-kill' ? 'kill' : s.fault === 'partition' ? 'start-partition' : s.fault === 'delay' ? 'start-delay' : 'pause';
    const waited = s.fault === 'effect-kill' ? "no worker's effect landed" : 'no worker took a job';
    recorder.record('nemesis', 'info', f, { target: 'worker' }, { error: `${waited} before the time limit` });
    return;
  }
  // Aimed at the library's renewal: the taker struck afterTakeMs after its take (still holding the job if it lasts).
  const aim = aimOf(s);
  if (s.afterTakeMs !== undefined) await sleep(s.afterTakeMs);
  const value = { worker: victim.name, pid: victim.proc.pid };
  if (s.fault === 'kill') return killWindow(run, victim, value, s.durationMs, 'job-taken', recorder, log);
  if (s.fault === 'effect-kill') return killWindow(run, victim, value, s.durationMs, 'effect-landed', recorder, log);
  if (s.fault === 'partition') return cutOffWindow(run, victim, s, recorder, log);
  if (s.fault === 'delay') return delayWindow(run, victim, s, recorder, log);
  recorder.record('nemesis', 'invoke', 'pause', value, { trigger: 'job-taken', ...aim });
  await victim.proc.pause();
  recorder.record('nemesis', 'info', 'pause', value, { trigger: 'job-taken', ...aim });
  log(`nemesis: ${victim.name} stalled (SIGSTOP) for ${s.durationMs} ms ${whenStruck(s)}`);
  await sleep(s.durationMs);
  recorder.record('nemesis', 'invoke', 'resume', value);
  await victim.proc.resume();
  recorder.record('nemesis', 'info', 'resume', value);
}

/**
 * client-partition: the worker's link to the queue's server cut both ways (nftables in both namespaces) for the
 * window; the worker runs on (its handler, its effect on the resource, which it still reaches), unable to renew
 * its lock or complete its job; healed after.
 */
async function cutOffWindow(
  run: LiveRun,
  victim: QueueProgram,
  s: QueuePlan['stalls'][number],
  recorder: Recorder,
  log: (line: string) => void,
): Promise<void> {
  const node = await run.currentQueueNode();
  const downMs = s.durationMs;
  const value = { worker: victim.name, from: node, ...aimOf(s) };
  const grudge = { [victim.name]: [node], [node]: [victim.name] };
  if (!(await nemesisStep(recorder, 'start-partition', value, () => run.nemesis.partition(grudge)))) return;
  log(`nemesis: ${victim.name} cut off from the queue's server ${node} for ${downMs} ms ${whenStruck(s)}`);
  await sleep(downMs);
  await nemesisStep(recorder, 'stop-partition', value, () => run.nemesis.partition({}));
}

/**
 * client-delay: the worker's link to the queue's server slowed by `delayMs` each way for the window (its proxy's
 * delay set, then back to none); its renewals and completions arrive late, its effect on the resource does not.
 */
async function delayWindow(run: LiveRun, victim: QueueProgram, s: QueuePlan['stalls'][number], recorder: Recorder, log: (line: string) => void): Promise<void> {
  const proxy = run.proxies.get(victim.name);
  const delayMs = s.delayMs ?? 0;
  const value = { worker: victim.name, to: run.queueNode, delayMs, ...aimOf(s) };
  if (
    !(await nemesisStep(recorder, 'start-delay', value, async () => proxy?.setDelay(delayMs) ?? Promise.reject(new Error(`no delay proxy on ${victim.name}`))))
  )
    return;
  log(`nemesis: ${victim.name}'s link to the queue's server ${run.queueNode} delayed ${delayMs} ms each way for ${s.durationMs} ms ${whenStruck(s)}`);
  await sleep(s.durationMs);
  await nemesisStep(recorder, 'stop-delay', value, async () => proxy!.setDelay(0));
}

/** A window's aim as the nemesis ops record it: `afterTakeMs` when it has one. */
function aimOf(s: { afterTakeMs?: number }): { afterTakeMs?: number } {
  return s.afterTakeMs !== undefined ? { afterTakeMs: s.afterTakeMs } : {};
}

/** When a taker was struck, as the log says it. */
function whenStruck(aim: { afterTakeMs?: number }): string {
  return aim.afterTakeMs === undefined ? 'while it holds a job' : `${aim.afterTakeMs} ms after it took a job (aimed at its lock's renewal)`;
}

/** server-kill: the queue's server killed (kill -9) when the window opens, started again after it. */
async function serverKillWindow(run: LiveRun, node: string, downMs: number, recorder: Recorder, log: (line: string) => void): Promise<void> {
  const value = { node };
  if (!(await nemesisStep(recorder, 'kill', value, () => run.nemesis.kill(node)))) return;
  log(`nemesis: the queue's server ${node} killed (kill -9); started again in ${downMs} ms`);
  await sleep(downMs);
  await nemesisStep(recorder, 'restart', value, () => run.nemesis.restart(node));
}

/** A nemesis op as invoke, then info (with the error when it failed); whether it took effect. */
async function nemesisStep(recorder: Recorder, f: string, value: Value, act: () => Promise<void>): Promise<boolean> {
  recorder.record('nemesis', 'invoke', f, value);
  try {
    await act();
    recorder.record('nemesis', 'info', f, value);
    return true;
  } catch (err) {
    recorder.record('nemesis', 'info', f, value, { error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

async function killWindow(
  run: LiveRun,
  victim: QueueProgram,
  value: { worker: string; pid: number },
  downMs: number,
  trigger: 'job-taken' | 'effect-landed',
  recorder: Recorder,
  log: (line: string) => void,
): Promise<void> {
  recorder.record('nemesis', 'invoke', 'kill', value, { trigger });
  await victim.kill();
  recorder.record('nemesis', 'info', 'kill', value, { trigger });
  forgetDeliveries(run, victim);
  log(
    `nemesis: ${victim.name} killed (kill -9) ${trigger === 'effect-landed' ? "after its job's effect landed, before its completion" : 'while it holds a job'}; started again in ${downMs} ms`,
  );
  await sleep(downMs);
  await startAgain(run, victim, recorder, log, {});
}

/**
 * A worker's program started again on its host in place of `old` (in the run's workers and programs at once: the
 * old one is gone), its start recorded (nemesis start, with `extra`, once it is ready or failed to be); supervised.
 */
async function startAgain(run: LiveRun, old: QueueProgram, recorder: Recorder, log: (line: string) => void, extra: Record<string, string>): Promise<void> {
  const fresh = run.restart(old);
  replace(run.workers, old, fresh);
  replace(run.programs, old, fresh);
  recorder.record('nemesis', 'invoke', 'start', { worker: old.name }, extra);
  // Listening before its ready line is read: a take may come in the same chunk.
  fresh.onEvent((e) => recordEvent(run, fresh, e, recorder));
  supervise(run, fresh, recorder, log);
  try {
    await fresh.whenReady();
    if (run.down.delete(old.name)) run.backAgain++;
    recorder.record('nemesis', 'info', 'start', { worker: old.name, pid: fresh.proc.pid }, extra);
  } catch (err) {
    recorder.record('nemesis', 'info', 'start', { worker: old.name }, { ...extra, error: err instanceof Error ? err.message : String(err) });
  }
}

/** `fresh` in `old`'s place in `list` (appended when `old` is not there). */
function replace(list: QueueProgram[], old: QueueProgram, fresh: QueueProgram): void {
  const i = list.indexOf(old);
  if (i === -1) list.push(fresh);
  else list[i] = fresh;
}

/** A dead worker's deliveries will never answer: the drain must not wait on them (their ops stay open: indeterminate). */
function forgetDeliveries(run: LiveRun, w: QueueProgram): void {
  for (const key of [...run.open.keys()]) if (key.startsWith(`${w.name}|`)) run.open.delete(key);
}

/** The first wait before a worker that ended on its own is started again, doubled at each end in a row up to the most (a supervisor's back-off). */
const SUPERVISOR_BACKOFF_MS = { first: 1000, most: 8000 } as const;

/**
 * A worker whose program ends on its own (its library crashed: an unhandled rejection once its server went away)
 * is started again, as the supervisor each library's docs run workers under would (RQ's program is its own
 * supervisor): after a second, doubled each time it ends again without having taken a job, up to 8 s (a
 * crash loop while the server is down, as Kubernetes' CrashLoopBackOff and supervisord back off). The restart is
 * in the history (nemesis start, `ended`). Until 2026-12-06 such a worker stayed down: the jobs no live worker was
 * left to take counted as lost (graphile-worker and Bee-Queue under a server kill: every worker gone at the first
 * kill), and the run was unknown. A worker down when the programs are stopped still makes the run unknown.
 */
function supervise(run: LiveRun, w: QueueProgram, recorder: Recorder, log: (line: string) => void): void {
  void w.proc.exited.then(async () => {
    const ended = w.exitedUnasked;
    if (ended === undefined || !run.supervising) return;
    const waitMs = w.takes > 0 ? SUPERVISOR_BACKOFF_MS.first : (run.backoffMs.get(w.name) ?? SUPERVISOR_BACKOFF_MS.first);
    run.backoffMs.set(w.name, Math.min(SUPERVISOR_BACKOFF_MS.most, 2 * waitMs));
    forgetDeliveries(run, w);
    run.down.add(w.name);
    log(`supervisor: ${w.name} ended on its own (${ended}); started again in ${waitMs} ms, as a supervisor would`);
    await sleep(waitMs);
    if (!run.supervising) return;
    await startAgain(run, w, recorder, log, { ended });
  });
}

/** A worker's event as history ops: each delivery its own process (take, effect, complete in order). */
function recordEvent(run: LiveRun, w: QueueProgram, e: WorkerEvent, recorder: Recorder): void {
  const key = `${w.name}|${e.job}|${e.attempt}`;
  const ref: Value = { job: e.job, attempt: e.attempt };
  const extra = { worker: w.name };
  if (e.event === 'take') {
    const p = run.nextProcess();
    run.open.set(key, p);
    recorder.record(p, 'invoke', 'take', null, extra);
    recorder.record(p, 'ok', 'take', ref, extra);
    const listeners = run.takeListeners.splice(0);
    for (const l of listeners) l(w);
    return;
  }
  const p = run.open.get(key);
  // An effect or a completion of a delivery never taken (a line lost before it): nothing to pair it with.
  if (p === undefined) return;
  if (e.phase === 'invoke') {
    recorder.record(p, 'invoke', e.event, ref, extra);
    return;
  }
  const type = e.phase === 'ok' ? 'ok' : e.phase === 'info' ? 'info' : 'fail';
  recorder.record(p, type, e.event, ref, {
    ...extra,
    ...(e.phase === 'rejected' ? { outcome: 'rejected' } : {}),
    ...(e.error !== undefined ? { error: e.error } : {}),
  });
  if (e.event === 'complete') {
    run.open.delete(key);
    run.finished.add(e.job);
  }
  if (e.event === 'effect' && type === 'ok') for (const l of run.effectListeners.splice(0)) l(w);
}

/**
 * Faults healed (every window has ended): wait until every enqueued job finished and no delivery is open. The
 * wait ends early only when no job finished for recoverMs + two locks: a queue still working off a backlog is
 * given the time it needs (its jobs are not lost, only late), a queue that stopped is not waited for forever.
 */
async function drain(run: LiveRun, o: QueueRunOptions, log: (line: string) => void): Promise<void> {
  const quietMs = o.recoverMs + 2 * o.lockMs;
  // A worker the supervisor is starting again may be in its longest back-off: wait that much more for it.
  const quietLimit = (): number => quietMs + (run.down.size > 0 ? SUPERVISOR_BACKOFF_MS.most : 0);
  const settled = (): boolean => run.open.size === 0 && [...run.enqueued].every((j) => run.finished.has(j));
  const started = Date.now();
  let lastProgress = Date.now();
  let [finished, back] = [run.finished.size, run.backAgain];
  while (!settled() && Date.now() - lastProgress < quietLimit()) {
    await sleep(100);
    // A job finished, or a worker the supervisor started again is ready (its first jobs are yet to finish).
    if (run.finished.size !== finished || run.backAgain !== back) [finished, back, lastProgress] = [run.finished.size, run.backAgain, Date.now()];
  }
  if (!settled())
    log(
      `drain: ${[...run.enqueued].filter((j) => !run.finished.has(j)).length} job(s) unfinished, ${run.open.size} in flight: no job finished in the last ${quietMs} ms (drained for ${Math.round((Date.now() - started) / 1000)} s)`,
    );
  // A stalled worker's late effect comes after the re-run's: give every open delivery's program a moment more.
  await sleep(Math.min(1000, o.lockMs));
}

async function finalRead(config: pg.ClientConfig, recorder: Recorder, process: number): Promise<void> {
  recorder.record(process, 'invoke', 'final-read', null);
  const c = new pg.Client({ ...config, connectionTimeoutMillis: 10_000, query_timeout: 10_000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    const done = await c.query<{ job: string; attempt: number; worker: string }>(FINAL_READ_SQL.done);
    const counter = await c.query<{ n: string }>(FINAL_READ_SQL.counter);
    const value: Value = {
      done: done.rows.map((r) => ({ job: Number(r.job), attempt: r.attempt, worker: r.worker })),
      counter: Number(counter.rows[0]?.n ?? 0),
    };
    recorder.record(process, 'ok', 'final-read', value);
  } catch (err) {
    recorder.record(process, 'fail', 'final-read', null, { error: err instanceof Error ? err.message : String(err) });
  } finally {
    await c.end().catch(() => undefined);
  }
}

function windowKinds(plan: QueuePlan): string {
  const counts = new Map<string, number>();
  for (const w of plan.stalls) counts.set(w.fault, (counts.get(w.fault) ?? 0) + 1);
  return [...counts].map(([fault, n]) => `${n} ${fault}`).join(', ') || 'none';
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (at: number): Promise<void> => sleep(Math.max(0, at - Date.now()));
