/**
 * `runLockTest(options)`: one lock run from nothing to a verdict.
 *
 *   1. start the lock service and PostgreSQL, one namespace per node, and one
 *      client host per worker; prepare the resource row;
 *   2. start one lock client process per worker, each in its own host;
 *   3. main phase: workers follow their seeded plans while the nemesis follows
 *      its seeded schedule; every op is appended to history.jsonl as it happens;
 *   4. heal everything, let the system recover, read the final value;
 *   5. tear the cluster down (also on error), check the history, write
 *      results.json and the report.
 *
 * Phases and schedules are pure and seeded (../generator); this file only
 * runs them in real time.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { checkersFor } from '../../checkers/lock/registry.js';
import { runCheckers, type LockCheckResult } from '../../checkers/lock/verdict.js';
import type { Cluster } from '../../src/cluster/cluster.js';
import type { DelayProxy } from '../../src/nemesis/delay-proxy-handle.js';
import { startCluster } from '../../src/cluster/start-cluster.js';
import { nemesisSchedule } from '../generator/nemesis-schedule.js';
import { prepareResource } from '../clients/resource.js';
import type { ClientConfig } from '../clients/protocol.js';
import { ClientSession } from './client-session.js';
import { Holders } from './holders.js';
import { runNemesis } from './nemesis-runner.js';
import { Recorder } from './recorder.js';
import { clusterBackendOf, replayCommand, tokenKindOf, validateRunOptions, type RunOptions } from './run-options.js';
import { sleep, StopSignal } from './stop-signal.js';
import { fencecheckVersion, serverVersions } from './versions.js';
import { runWorker, type WorkerContext } from './worker.js';
import { runFinalRead } from './final-read.js';
import { leaderBackendOf, sentinelClientOptions, sentinelClusterOptions } from './sentinel-run.js';
import { compiledEntry } from '../../src/cluster/paths.js';
import { progressLine } from './progress.js';
import { writeRunReport } from '../../src/report/write-run-report.js';

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
}

const RESOURCE_KEY = 'counter';
const LOCK_NAME = 'fencecheck-lock';

export async function runLockTest(input: RunOptions, hooks: RunHooks = {}): Promise<RunResult> {
  const o = validateRunOptions(input);
  const log = hooks.log ?? (() => undefined);
  const started = Date.now();
  const name = o.name ?? `${o.backend}-${o.resource}-${o.workload}`;
  const runDir = resolve(o.resultsDir, name, new Date(started).toISOString().replace(/[-:]/g, '').replace(/\..*$/, ''));
  mkdirSync(join(runDir, 'logs'), { recursive: true });
  linkLatest(runDir);
  const replay = replayCommand(o);
  const backend = clusterBackendOf(o.backend);
  const hosts = Array.from({ length: o.clients }, (_, i) => `c${i + 1}`);
  const test: Record<string, unknown> = {
    name,
    ...o,
    startedAt: new Date(started).toISOString(),
    versions: { fencecheck: fencecheckVersion(), node: process.version, ...(await serverVersions([backend, 'postgres'])) },
    replay,
  };
  writeJson(join(runDir, 'test.json'), test);

  log(`fencecheck run: ${name}, seed ${o.seed}, ${o.timeLimitS} s, ${o.clients} clients, nemesis ${o.nemesis.join(',') || 'none'}`);
  log(`run directory: ${runDir}`);
  const recorder = new Recorder(join(runDir, 'history.jsonl'));
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster({
      backends: [backend, 'postgres'],
      clientHosts: hosts,
      runDir,
      ...(backend === 'redis' ? { redis: { persistence: o.redisPersistence } } : {}),
      ...(backend === 'redlock' ? { redlock: { persistence: o.redisPersistence } } : {}),
      ...sentinelClusterOptions(o),
      log: (l) => log(`cluster: ${l}`),
      ...(hooks.busyTimeoutMs !== undefined ? { busyTimeoutMs: hooks.busyTimeoutMs } : {}),
    });
    const c = cluster;
    const pg = c.endpoints('postgres')[0]!;
    const pgConfig = { host: pg.host, port: pg.port, user: 'postgres', database: 'postgres' };
    await prepareResource(pgConfig, RESOURCE_KEY, o.workload === 'lock-counter' ? '0' : '');
    const lockNodes = c.nodesOf(backend).map((n) => n.name);
    const proxies = await startProxies(c, hosts, o.proxies, lockNodes, pg.node);
    const config = (client: number): ClientConfig => {
      const host = hosts[client % hosts.length]!;
      const resourceProxy = proxies.get(host)?.get(pg.node);
      return {
        client,
        backend: o.backend,
        lockEndpoints: c.clientEndpoints(backend).map((e) => {
          const p = proxies.get(host)?.get(e.node);
          return p ? `${p.host}:${p.port}` : `${e.host}:${e.port}`;
        }),
        lockName: o.backend === 'zookeeper' ? `/${LOCK_NAME}` : LOCK_NAME,
        resource: o.resource,
        pg: resourceProxy ? { ...pgConfig, host: resourceProxy.host, port: resourceProxy.port } : pgConfig,
      resourceKey: RESOURCE_KEY,
        callTimeoutMs: o.callTimeoutMs,
        sessionTimeoutMs: o.ttlMs,
        checkHold: o.checkHold,
        ...sentinelClientOptions(o),
      };
    };

    const sessions = new Set<ClientSession>();
    /** Each worker's current client, for faults aimed at one worker. */
    const current = new Map<number, ClientSession>();
    let spawned = 0;
    const clientMain = compiledEntry('../workloads/clients/client-main.js');
    const spawnClient = async (worker: number): Promise<ClientSession> => {
      const host = c.clientHost(hosts[worker % hosts.length]!);
      const procName = `client${worker + 1}-${++spawned}`;
      const proc = host.spawn([process.execPath, clientMain], { name: procName, env: { FC_CLIENT_CONFIG: JSON.stringify(config(worker)) } });
      const session = new ClientSession(proc, c.logPath(procName));
      sessions.add(session);
      current.set(worker, session);
      const ready = await Promise.race([session.ready, sleep(30_000).then(() => undefined)]);
      if (!ready) throw new Error(`lock client ${procName} was not ready within 30 s (log: ${c.logPath(procName)})`);
      // The client libraries' versions, as the first ready client reports them.
      Object.assign(test['versions'] as Record<string, string>, ready.versions);
      return session;
    };
    const retireClient = async (s: ClientSession): Promise<void> => {
      sessions.delete(s);
      s.close();
      await c.nemesis.kill(s.proc).catch(() => undefined);
    };

    const first = await Promise.all(hosts.map((_, i) => spawnClient(i)));
    writeJson(join(runDir, 'test.json'), test);
    const stop = new StopSignal();
    const holders = new Holders();
    const pauseMs = Math.max(o.durationMs, 2 * o.ttlMs);
    const section = {
      recorder,
      holders,
      workload: o.workload,
      resource: o.resource,
      ttlMs: o.ttlMs,
      giveUpMs: 4 * o.callTimeoutMs + pauseMs + 10_000,
      sleep,
    };
    const workerCtx: WorkerContext = { section, stop, seed: o.seed, clients: o.clients, rate: o.rate, hold: o.holdMs, spawnClient, retireClient, log };
    const windows = o.script ?? nemesisSchedule(
      {
        faults: o.nemesis,
        intervalMs: o.intervalMs,
        durationMs: o.durationMs,
        leaseMs: o.ttlMs,
        targets: { nodes: lockNodes, server: o.nemesisTarget },
      },
      o.seed,
      o.timeLimitS * 1000,
    );
    log(`main phase: ${o.timeLimitS} s, ${windows.length} fault windows`);
    const startNs = recorder.now();
    const nemesisDone = runNemesis(
      {
        cluster: c,
        recorder,
        holders,
        lockNodes,
        leaderBackend: leaderBackendOf(backend),
        resourceNode: c.nodesOf('postgres')[0]!.name,
        sessionOf: (worker) => current.get(worker),
        proxiesOf: (host) => proxies.get(host),
        startNs,
        sleepUntilNs: (ns) => stop.sleep((ns - recorder.now()) / 1e6),
        stopped: () => stop.stopped,
        log,
      },
      windows,
    );
    const workersDone = Promise.all(first.map((s, i) => runWorker(workerCtx, i, s)));
    const ticker = setInterval(() => log(progressLine(recorder, startNs, o.timeLimitS, holders)), 5000);
    await stop.sleep(o.timeLimitS * 1000);
    stop.stop();
    await nemesisDone;
    clearInterval(ticker);

    log('heal: ending every fault');
    recorder.record('nemesis', 'invoke', 'heal-all', null);
    await c.nemesis.healAll().catch((err: unknown) => log(`heal: ${err instanceof Error ? err.message : String(err)}`));
    recorder.record('nemesis', 'info', 'heal-all', null);
    await workersDone;
    log(`recover: ${o.recoverMs} ms`);
    await sleep(o.recoverMs);
    if (o.workload !== 'mutex') {
      const reader = await spawnClient(o.clients);
      await runFinalRead(recorder, reader, nextProcessId(recorder), o.callTimeoutMs);
    }
    for (const s of sessions) s.close();
  } finally {
    recorder.close();
    if (cluster) await cluster.teardown().catch((err: unknown) => log(`teardown: ${err instanceof Error ? err.message : String(err)}`));
  }

  const checked = runCheckers(checkersFor(o.workload), recorder.ops, {
    workload: o.workload,
    resource: o.resource,
    backend: o.backend,
    tokenKind: tokenKindOf(o.backend),
  });
  const durationMs = Date.now() - started;
  writeJson(join(runDir, 'results.json'), { valid: checked.valid, deciding: checked.deciding, durationMs, checkers: checked.verdicts });
  const report = await writeRunReport(runDir).catch((err: unknown) => {
    // The verdict stands without its picture; say why the picture is missing.
    log(`report: not written: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  });
  return { ...checked, runDir, replay, durationMs, ...(report ? { reportPath: report } : {}) };
}

/**
 * Delay proxies, one per client host and server it should slow, with no delay
 * until a scripted `delay` fault: `host → node → proxy`. Each runs inside its
 * client's namespace, so that client's partitions still apply to the link.
 */
async function startProxies(c: Cluster, hosts: string[], which: RunOptions['proxies'], lockNodes: string[], resourceNode: string): Promise<Map<string, Map<string, DelayProxy>>> {
  const out = new Map<string, Map<string, DelayProxy>>();
  if (which === undefined) return out;
  const targets = [...(which !== 'lock' ? [resourceNode] : []), ...(which !== 'resource' ? lockNodes : [])];
  for (const host of hosts) {
    const byNode = new Map<string, DelayProxy>();
    for (const node of targets) byNode.set(node, await c.nemesis.delayProxy({ on: host, to: node, delayMs: 0, direction: 'both' }));
    out.set(host, byNode);
  }
  return out;
}

function nextProcessId(recorder: Recorder): number {
  let max = -1;
  for (const op of recorder.ops) if (typeof op.process === 'number' && op.process > max) max = op.process;
  return max + 1;
}

/** `results/<test>/latest` → this run, replaced atomically enough for a person's shell. */
function linkLatest(runDir: string): void {
  const link = join(dirname(runDir), 'latest');
  rmSync(link, { force: true });
  symlinkSync(basename(runDir), link);
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 2) + '\n');
}

