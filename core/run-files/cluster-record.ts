/**
 * What test.json records about the cluster a run ran on (fresh or warm, its
 * start or reset, the clean check): a run-file format, so core holds it and
 * the warm pool (runtime/runner/warm-pool.ts) fills it in.
 */
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
  /**
   * The run's clients that were spares: fresh processes the previous run on
   * this warm cluster started during its recovery wait, which had loaded
   * their code and connected to nothing until this run configured them
   * (runtime/hosts/spare-clients.ts). Absent: none (a fresh cluster, or a foreign client).
   */
  clientsFromSpares?: number;
}

/** The clean check's verdict: what is left (nothing: clean) and how long asking took. */
export interface CleanCheck {
  ok: boolean;
  problems: string[];
  ms: number;
}
