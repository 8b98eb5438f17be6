/**
 * WarmPool: one lock cluster kept running between the runs of one command
 * (compare, scenario, hunt, shrink, the harness bench), reset between them
 * instead of torn down and started again. Create one per command, hand it to
 * each run as `RunHooks.warm`, and `close()` it at the end (also on error).
 *
 * A run asks for the cluster its options need (`clusterKey`: backend, cluster
 * options, client hosts, provider). The pool's cluster is handed out when the
 * key matches, after a reset (runtime/cluster/warm/reset-cluster.ts) and a clean
 * check that proves it; else, or when the check finds anything left, the
 * pool's cluster is torn down and a fresh one started, and the record says
 * why. The cluster keeps its teardown hooks and state file all along, so a
 * signal between runs or during a reset tears it down, and a SIGKILL leaves a
 * state file the next command (or `down`) reclaims.
 *
 * A pool runs in one slot (core/cluster/slots.ts): slot 0 by default, as
 * every single-cluster command; `'free'` for the lanes of a parallel command,
 * each pool then in a free slot of its own (free-slot.ts), kept while its
 * cluster lives and given back when it is torn down.
 */
import type { Cluster } from '../cluster/cluster.js';
import { startCluster, type StartClusterOptions } from '../cluster/start-cluster.js';
import type { CleanCheck, ClusterRecord } from '../../core/run-files/cluster-record.js';
import { cleanCheck, resetCluster } from '../cluster/warm/reset-cluster.js';
import { messageOf } from '../hosts/driver.js';
import { adoptKeptCluster, type Adoption } from '../cluster/adopt-cluster.js';
import { keptMismatch, keptOptionsOf } from '../cluster/kept-cluster.js';
import { chooseFreeSlot, type ChosenSlot } from '../cluster/free-slot.js';
import { ClusterBusyError } from '../hosts/cluster-errors.js';
import { MAX_SLOTS } from '../../core/cluster/slots.js';

/** The cluster options that decide whether a pool's cluster fits a run (pure): everything but where and how it logs. */
export function clusterKey(o: StartClusterOptions): string {
  const { runDir: _r, log: _l, busyTimeoutMs: _b, slot: _s, ...rest } = o;
  return JSON.stringify({ ...rest, backends: [...rest.backends].sort(), clientHosts: [...(rest.clientHosts ?? [])] });
}

export type StartFn = (o: StartClusterOptions) => Promise<Cluster>;
export type AdoptFn = (o: StartClusterOptions, log: (line: string) => void) => Promise<Adoption>;

export class WarmPool {
  private current: { key: string; cluster: Cluster; runs: number; opts: StartClusterOptions } | undefined;
  private askedForKept = false;
  /** A kept cluster was adopted: the pool's cluster at the end is kept in its place (`fencecheck up --keep` asked for one). */
  private keeping = false;

  private chosen: ChosenSlot | undefined;
  private lastSlot: number | undefined;

  /**
   * `start`: startCluster; `adopt`: the cluster `fencecheck up --keep` left, if it fits (stand-ins in tests);
   * `slot`: the slot the pool's clusters run in, or `'free'` (a lane of a parallel command). Only a pool of slot 0
   * adopts a kept cluster: `up --keep` keeps it there.
   */
  constructor(
    private readonly start: StartFn = startCluster,
    private readonly adopt: AdoptFn = adoptKeptCluster,
    private readonly slot: number | 'free' = 0,
  ) {
    if (slot !== 0) this.askedForKept = true;
  }

  /** The slot of the pool's cluster now (undefined before the first start of a `'free'` pool). */
  get slotInUse(): number | undefined {
    return this.slot === 'free' ? this.chosen?.slot : this.slot;
  }

  /** The cluster for a run: the pool's, reset and checked, when it fits and is clean; else a fresh one. */
  async take(o: StartClusterOptions, log: (line: string) => void): Promise<{ cluster: Cluster; record: Omit<ClusterRecord, 'logsDir'> }> {
    const key = clusterKey(o);
    const t0 = Date.now();
    let because: string | undefined;
    let failedCheck: CleanCheck | null = null;
    // The first run of a command takes the kept cluster when one fits: reset and checked below like any warm one.
    if (!this.current && !this.askedForKept) {
      this.askedForKept = true;
      const adopted = await this.adopt(o, log);
      // A kept cluster that does not fit is replaced (one cluster per machine), and the replacement kept in its place.
      if (adopted) this.keeping = true;
      if (adopted && 'cluster' in adopted) this.current = { key, cluster: adopted.cluster, runs: adopted.runs, opts: o };
      else if (adopted) because = adopted.because;
    }
    const cur = this.current;
    if (cur && this.fits(cur, o)) {
      for (const name of o.clientHosts ?? []) if (!cur.cluster.clientHosts().some((c) => c.name === name)) await cur.cluster.addClientHost(name);
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
      because = 'the run needs another cluster (backend, options or clients)';
    }
    if (because) log(`warm cluster: starting fresh: ${because}`);
    await this.dropCurrent(log);
    const cluster = await this.startInSlot(o, log);
    this.current = { key, cluster, runs: 1, opts: o };
    return {
      cluster,
      record: { fresh: true, reusedAfterRuns: 0, startMs: Date.now() - t0, resetMs: 0, cleanCheck: failedCheck, ...(because ? { freshBecause: because } : {}) },
    };
  }

  /** A fresh cluster in the pool's slot; a `'free'` pool whose slot another process took meanwhile chooses again. */
  private async startInSlot(o: StartClusterOptions, log: (line: string) => void): Promise<Cluster> {
    if (this.slot !== 'free') return this.start(this.slot === 0 ? o : { ...o, slot: this.slot });
    for (let attempt = 0; ; attempt++) {
      // The slot it had before (a fresh start after a failed clean check) if still free, else the lowest free one.
      const chosen = (this.chosen ??= await chooseFreeSlot(o.busyTimeoutMs ?? 0, this.lastSlot));
      this.lastSlot = chosen.slot;
      try {
        return await this.start({ ...o, slot: chosen.slot });
      } catch (err) {
        chosen.release();
        this.chosen = undefined;
        this.lastSlot = undefined;
        if (!(err instanceof ClusterBusyError) || attempt >= MAX_SLOTS) throw err;
        log(`warm cluster: slot ${chosen.slot} was taken by another process meanwhile; choosing another`);
      }
    }
  }

  /** The same cluster options; a kept cluster also serves runs that only need other client hosts (they are added). */
  private fits(cur: NonNullable<WarmPool['current']>, o: StartClusterOptions): boolean {
    return cur.key === clusterKey(o) || (this.keeping && keptMismatch(keptOptionsOf(cur.opts), o) === undefined);
  }

  /** Whether the pool keeps a cluster (then this process holds the machine's cluster lock: not a busy machine). */
  get holding(): boolean {
    return this.current !== undefined;
  }

  /**
   * Tear the pool's cluster down (idempotent); a cluster adopted from
   * `fencecheck up --keep` is kept for the next command instead, with the runs
   * it served (or the cluster that replaced it, when its check failed or a run
   * needed another one: the user asked for a cluster to be kept).
   */
  async close(log: (line: string) => void = () => undefined): Promise<void> {
    const cur = this.current;
    if (cur && this.keeping) {
      this.current = undefined;
      // Spares are this process's children, for a next run of this command: none is left to the next command.
      await cur.cluster.spares.stopAll();
      await cur.cluster.keep({
        options: keptOptionsOf({ ...cur.opts, clientHosts: cur.cluster.clientHosts().map((c) => c.name) }),
        runs: cur.runs,
        keptAt: new Date().toISOString(),
      });
      log(`warm cluster: kept for the next command after ${cur.runs} runs (\`fencecheck down\` ends it)`);
      return;
    }
    await this.dropCurrent(log);
  }

  private async dropCurrent(log: (line: string) => void): Promise<void> {
    const cur = this.current;
    this.current = undefined;
    if (cur) await cur.cluster.teardown().catch((err: unknown) => log(`teardown: ${messageOf(err)}`));
    this.chosen?.release();
    this.chosen = undefined;
  }
}

/** A command's pools, one a lane: one lane is slot 0 (as every single-cluster command; a kept cluster adopted there), several each a free slot. */
export function warmPoolsFor(lanes: number): WarmPool[] {
  return Array.from({ length: lanes }, () => (lanes === 1 ? new WarmPool() : new WarmPool(undefined, undefined, 'free')));
}
