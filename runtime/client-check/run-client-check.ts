/**
 * `runClientCheck`: a lock client (built-in or `--client 'CMD'`) through the
 * contract checks (contract-checks.ts) against a real cluster: the backend's
 * servers and PostgreSQL in namespaces, two client processes A and B in two
 * client hosts, the resource row read and set from the control namespace.
 *
 * `checkClientOn` takes a cluster that is already up (the integration tests
 * check many clients on one cluster); `runClientCheck` starts one and tears
 * it down, also on error.
 */
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { Cluster } from '../cluster/cluster.js';
import { startCluster } from '../cluster/start-cluster.js';
import type { ProviderName } from '../../core/plan/providers.js';
import type { ClientConfig, ClientReady, ClientTokenKind } from '../../core/client-protocol.js';
import { clientConfigOf } from '../../core/client-config.js';
import { clusterBackendOf, clusterBackendsOf, type LockService, type ResourceMode } from '../../core/vocabulary.js';
import { prepareResource, type PgEndpoint } from '../clients/resource.js';
import { ClientLauncher } from '../runner/client-command.js';
import { clientModes } from '../../core/client-modes.js';
import type { ClientSession } from '../runner/client-session.js';
import { realClock, sleepOn } from '../runner/clock.js';
import { runContractChecks, type CheckClient, type CheckResult, type CheckWorld } from './contract-checks.js';

export interface ClientCheckOptions {
  backend: LockService;
  /** A foreign client's command line; undefined checks the built-in client of `backend`. */
  client?: string;
  callTimeoutMs: number;
  /** Ordinary holds' TTL (default 4000 ms). */
  holdTtlMs?: number;
  /** The paused holder's TTL / session (default 2000 ms). */
  pausedTtlMs?: number;
  log?: (line: string) => void;
  /** Each check as it ends. */
  onCheck?: (r: CheckResult) => void;
  /** Where the cluster runs (default namespaces). */
  provider?: ProviderName;
}

export interface ClientCheckResult {
  checks: CheckResult[];
  token: ClientTokenKind;
  versions: Record<string, string>;
  /** The resource modes the client serves, from its token kind and features (core/client-modes.ts). */
  modes: ResourceMode[];
  /** Protocol violations during the checks (each also fails a check). */
  violations: string[];
  passed: boolean;
}

const KEY = 'client-check';
const HOSTS = ['c1', 'c2'];

export async function runClientCheck(o: ClientCheckOptions, runDir: string, busyTimeoutMs = 0): Promise<ClientCheckResult> {
  const cluster = await startCluster({
    backends: [...clusterBackendsOf(o.backend), 'postgres'],
    clientHosts: HOSTS,
    runDir: resolve(runDir),
    busyTimeoutMs,
    ...(o.provider ? { provider: o.provider } : {}),
    ...(o.log ? { log: (l: string) => o.log!(`cluster: ${l}`) } : {}),
  });
  try {
    return await checkClientOn(cluster, o);
  } finally {
    await cluster.teardown().catch((err: unknown) => o.log?.(`teardown: ${err instanceof Error ? err.message : String(err)}`));
  }
}

export async function checkClientOn(cluster: Cluster, o: ClientCheckOptions): Promise<ClientCheckResult> {
  const backend = clusterBackendOf(o.backend);
  const pgNode = cluster.endpoints('postgres')[0]!;
  const pgEndpoint: PgEndpoint = { host: pgNode.host, port: pgNode.port, user: 'postgres', database: 'postgres' };
  await prepareResource(pgEndpoint, KEY, '');
  const pausedTtlMs = o.pausedTtlMs ?? 2000;
  const config = (client: number): ClientConfig =>
    clientConfigOf({
      client,
      system: { backend: o.backend },
      lockEndpoints: cluster.clientEndpoints(backend).map((e) => `${e.host}:${e.port}`),
      lockBase: 'fencecheck-check-lock',
      resource: 'none',
      pg: pgEndpoint,
      resourceKey: KEY,
      callTimeoutMs: o.callTimeoutMs,
      // ZooKeeper's lease is the session: the paused holder's TTL.
      sessionTimeoutMs: pausedTtlMs,
    });
  const launcher = new ClientLauncher({
    ...(o.client !== undefined ? { command: o.client } : {}),
    access: { mode: 'none', key: KEY },
    ...(o.log ? { log: o.log } : {}),
  });
  const sql = new pg.Client({ ...pgEndpoint, connectionTimeoutMillis: 5000, query_timeout: 5000 });
  sql.on('error', () => undefined);
  const sessions: ClientSession[] = [];
  try {
    await sql.connect();
    for (const [i, host] of HOSTS.entries()) {
      const name = `check-${'ab'[i]}`;
      sessions.push(
        await launcher.start(cluster.clientHost(host), name, config(i), cluster.logPath(name), (proc) => ({
          pause: () => cluster.nemesis.pause(proc),
          resume: () => cluster.nemesis.resume(proc),
          kill: () => cluster.nemesis.kill(proc),
        })),
      );
    }
    const ready = launcher.ready!;
    const checks = await runContractChecks(checkWorld(o, sessions, ready, sql, pgEndpoint, pausedTtlMs), o.onCheck);
    const violations = launcher.violations.map((v) => `${v.client}: ${v.problem}`);
    if (violations.length > 0) {
      const r: CheckResult = { check: 'protocol', status: 'fail', evidence: violations.join('; ') };
      checks.push(r);
      o.onCheck?.(r);
    }
    return {
      checks,
      token: ready.token,
      versions: ready.versions,
      modes: clientModes(ready),
      violations,
      passed: checks.every((c) => c.status !== 'fail'),
    };
  } finally {
    await endSessions(sessions);
    await sql.end().catch(() => undefined);
  }
}

/** The two clients A and B, and the row of the resource as the checks see and set it. */
function checkWorld(
  o: ClientCheckOptions,
  sessions: ClientSession[],
  ready: ClientReady,
  sql: pg.Client,
  pgEndpoint: PgEndpoint,
  pausedTtlMs: number,
): CheckWorld {
  const giveUpMs = 4 * o.callTimeoutMs + 10_000;
  const client = (s: ClientSession, name: string): CheckClient => ({
    name,
    call: (body, access) => s.call(body, giveUpMs, access),
    pause: () => s.pause(),
    resume: () => s.resume(),
  });
  return {
    a: client(sessions[0]!, 'A'),
    b: client(sessions[1]!, 'B'),
    ready,
    key: KEY,
    callTimeoutMs: o.callTimeoutMs,
    holdTtlMs: o.holdTtlMs ?? 4000,
    pausedTtlMs,
    pauseMs: Math.max(3500, Math.round(pausedTtlMs * 1.75)),
    row: async () => {
      const r = await sql.query<{ data: string; fence: string; mark: string | null }>('SELECT data, fence, mark FROM files WHERE key = $1', [KEY]);
      const row = r.rows[0]!;
      return { data: row.data, fence: Number(row.fence), mark: row.mark };
    },
    setRow: async (fence, mark) => void (await sql.query('UPDATE files SET fence = $2, mark = $3 WHERE key = $1', [KEY, fence, mark])),
    resetRow: () => prepareResource(pgEndpoint, KEY, ''),
    sleep: (ms) => sleepOn(realClock, ms),
    now: () => performance.now(),
  };
}

/** Asks each client to shut down, then kills any still alive after 3 s. */
async function endSessions(sessions: readonly ClientSession[]): Promise<void> {
  for (const s of sessions) {
    if (s.alive) await s.call({ op: 'shutdown' }, 3000).catch(() => undefined);
    s.close();
  }
  await Promise.all(
    sessions.map((s) => Promise.race([s.exited, sleepOn(realClock, 3000)]).then(() => (s.alive ? s.kill().catch(() => undefined) : undefined))),
  );
}

/** The default place of a check's cluster logs. */
export function clientCheckDir(resultsDir: string): string {
  return join(resultsDir, 'client-check', new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, ''));
}
