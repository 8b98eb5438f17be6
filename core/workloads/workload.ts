/**
 * What a lock workload is (pure): the question its runs ask, the checkers
 * that answer it, and the facts the rest of fencecheck asks of it (does its
 * section touch the resource, is the row a counter, is the lock itself the
 * subject, what does a section write). One module per workload beside this
 * one, gathered in registry.ts; nothing else names a workload to decide how
 * it behaves.
 */
export type LockWorkload = 'mutex' | 'lock-counter' | 'fenced-write' | 'jobs';

export interface Workload {
  name: LockWorkload;
  /** The question a run of it answers, in a line. */
  question: string;
  /** The checkers that judge it, by name (core/checkers/lock/registry.ts), in the report's order: the data's first, the counts last. */
  checkers: readonly string[];
  /** Its sections read, write or mark the resource; the mutex workload only holds the lock. */
  accessesResource: boolean;
  /** The row is a counter: a section reads n and writes n + 1 (the final read counts what was acknowledged). */
  counter: boolean;
  /** The lock itself is the subject: mutual exclusion decides the run. */
  lockIsTheSubject: boolean;
  /** Late writes (a holder whose lock passed on) decide it, where the resource is the lock's to guard; jobs asks whether each job was done once instead. */
  lateWritesDecide: boolean;
  /** Why it cannot run without a lock (`--backend none`), or undefined when it can. */
  withoutLock?: string;
  /**
   * The field each write records what it is under (jobs: `job`, the job its done record is for, equal to its
   * value), so a history says which of two workloads with the same ops it is (core/analyse/declared-facts.ts).
   */
  writeField?: string;
  /** What section `seq` of `client` writes, when the workload fixes it in the plan (fenced-write); null: computed from the read, or no write. */
  writeValue(client: number, seq: number): string | null;
}
