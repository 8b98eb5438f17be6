/**
 * WarmPool: one lock cluster kept running between the runs of one command
 * (compare, scenario, hunt, shrink, the harness bench), reset between them
 * instead of torn down and started again. Create one per command, hand it to
 * each run as `RunHooks.warm`, and `close()` it at the end (also on error).
 *
 * A run asks for the cluster its options need (`clusterKey`: backend, cluster
 * options, client hosts, provider). The pool's cluster is handed out when the
 * key matches, after a reset (src/cluster/warm/reset-cluster.ts) and a clean
 * check that proves it; else, or when the check finds anything left, the
 * pool's cluster is torn down and a fresh one started, and the record says
 * why. The cluster keeps its teardown hooks and state file all along, so a
 * signal between runs or during a reset tears it down, and a SIGKILL leaves a
 * state file the next command (or `down`) reclaims.
 */
import type { Cluster } from '../cluster/cluster.js';
import { startCluster, type StartClusterOptions } from '../cluster/start-cluster.js';
import { cleanCheck, resetCluster } from '../cluster/warm/reset-cluster.js';
import { type CleanCheck } from '../../core/run-files/cluster-record.js';
import { messageOf } from '../cluster/warm/backend-reset.js';

/** What test.json records about the cluster a run ran on. */
export interface ClusterRecord {
  /** Started for this run (true), or reused from the pool. */
  fresh: boolean;
  /** Runs the cluster served before this one (0: fresh). */
  reusedAfterRuns: number;
  /** Starting it (fresh) or resetting and checking it (warm), ms. */
  startMs: number;
  /** The reset alone (warm), ms; 0 for a fresh cluster. */
  resetMs: number;
  /** The clean check before a warm run, or the failed one that made this cluster fresh; null when none ran. */
  cleanCheck: CleanCheck | null;
  /** Why a pool started this run's cluster fresh (another key, a failed check or reset); absent otherwise. */
  freshBecause?: string;
  /** Where the servers' logs are: the run directory of the run that started the cluster. */
  logsDir: string;
}

/** The cluster options that decide whether a pool's cluster fits a run (pure): everything but where and how it logs. */
export function clusterKey(o: StartClusterOptions): string {
  const { runDir: _r, log: _l, busyTimeoutMs: _b, ...rest } = o;
  return JSON.stringify({ ...rest, backends: [...rest.backends].sort(), clientHosts: [...(rest.clientHosts ?? [])] });
}

export type StartFn = (o: StartClusterOptions) => Promise<Cluster>;

export class WarmPool {
  private current: { key: string; cluster: Cluster; runs: number } | undefined;

  /** `start`: startCluster, or a stand-in in tests. */
  constructor(private readonly start: StartFn = startCluster) {}

  /** The cluster for a run: the pool's, reset and checked, when it fits and is clean; else a fresh one. */
  async take(o: StartClusterOptions, log: (line: string) => void): Promise<{ cluster: Cluster; record: Omit<ClusterRecord, 'logsDir'> }> {
    const key = clusterKey(o);
    const t0 = Date.now();
    let because: string | undefined;
    let failedCheck: CleanCheck | null = null;
    const cur = this.current;
    if (cur && cur.key === key && cur.cluster.provider === 'namespaces') {
      try {
        log(`warm cluster: resetting after ${cur.runs} runs`);
        const steps = await resetCluster(cur.cluster, log);
        const resetMs = Date.now() - t0;
        const check = await cleanCheck(cur.cluster, log);
        if (check.ok) {
          if (steps.length > 0) log(`warm cluster: reset ${steps.map((s) => s.kind).join(', ')}`);
          log(`warm cluster: reused after ${cur.runs} runs, reset ${resetMs} ms, clean check ${check.ms} ms`);
          return { cluster: cur.cluster, record: { fresh: false, reusedAfterRuns: cur.runs++, startMs: Date.now() - t0, resetMs, cleanCheck: check } };
        }
        failedCheck = check;
        because = `the clean check failed: ${check.problems.join('; ')}`;
      } catch (err) {
        because = `the reset failed: ${messageOf(err)}`;
      }
    } else if (cur) {
      because = cur.cluster.provider !== 'namespaces' ? `the ${cur.cluster.provider} provider has no warm reset` : 'the run needs another cluster (backend, options or clients)';
    }
    if (because) log(`warm cluster: starting fresh: ${because}`);
    await this.dropCurrent(log);
    const cluster = await this.start(o);
    this.current = { key, cluster, runs: 1 };
    return { cluster, record: { fresh: true, reusedAfterRuns: 0, startMs: Date.now() - t0, resetMs: 0, cleanCheck: failedCheck, ...(because ? { freshBecause: because } : {}) } };
  }

  /** Whether the pool keeps a cluster (then this process holds the machine's cluster lock: not a busy machine). */
  get holding(): boolean {
    return this.current !== undefined;
  }

  /** Tear the pool's cluster down (idempotent). */
  async close(log: (line: string) => void = () => undefined): Promise<void> {
    await this.dropCurrent(log);
  }

  private async dropCurrent(log: (line: string) => void): Promise<void> {
    const cur = this.current;
    this.current = undefined;
    if (cur) await cur.cluster.teardown().catch((err: unknown) => log(`teardown: ${messageOf(err)}`));
  }
}
