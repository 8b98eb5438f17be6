/**
 * Verdicts of the lock checkers, as data (Jepsen's second channel).
 *
 * Each checker looks at one lock-run history (docs/lock-workloads.md) and
 * answers with a `CheckerVerdict`: valid true, false or 'unknown', a one-line
 * summary, and the anomalies it found. An anomaly is a witness a person can
 * follow: a sentence naming the processes, their tokens and the times in ms
 * since the start, plus the window (ns) and history indexes a report uses to
 * zoom in and highlight. Verdicts merge false > unknown > true, and a checker
 * that throws becomes 'unknown' with its error: a crash is never "valid".
 */
import { workloadOf } from '../../workloads/registry.js';
import type { LockWorkload } from '../../workloads/workload.js';
import type { History } from '../../history/op.js';

export type Validity = true | false | 'unknown';

export type AnomalyKind =
  | 'double-hold'
  | 'maybe-double-hold'
  | 'lost-update'
  | 'duplicate-job'
  | 'lost-job'
  | 'phantom-update'
  | 'stale-write'
  | 'token-regression'
  | 'token-reuse'
  | 'interleaved-sections'
  | 'not-linearizable';

export interface Anomaly {
  kind: AnomalyKind;
  /** One sentence: who (p3), under which token, when (ms since the start), what went wrong. */
  message: string;
  processes: number[];
  tokens: (number | string)[];
  /** Nanoseconds since the start, as the history's `time`: where a report should zoom to. */
  window: { start: number; end: number };
  /** History indexes of the ops involved, for highlighting. */
  opIndexes: number[];
  /** not-linearizable only: the search's witness, as op (invocation) indexes (docs/run-directory.md). */
  witness?: { prefix: number[]; op: number; state: string; reason: string };
}

export interface CheckerVerdict {
  checker: string;
  valid: Validity;
  /** One line, for a person. */
  summary: string;
  /** At most MAX_ANOMALIES of them; `anomalyCount` counts all. */
  anomalies: Anomaly[];
  anomalyCount: number;
  stats?: Record<string, number>;
  /** Set when the checker crashed: the error's message. */
  error?: string;
}

export type { LockWorkload } from '../../workloads/workload.js';

/** The workloads whose row is a counter (read n, write n + 1): lock-counter, and jobs (the stream's position). */
export function isCounterWorkload(workload: LockWorkload): boolean {
  return workloadOf(workload).counter;
}
export type ResourceMode = 'none' | 'fence' | 'fence-claim' | 'cas-unique' | 'cas-unique-nonatomic' | 'version' | 'for-update';
export type TokenKind = 'monotonic' | 'unique';

/** What a checker knows about the run besides its history. */
export interface LockContext {
  workload: LockWorkload;
  resource: ResourceMode;
  backend: string;
  tokenKind: TokenKind;
  /**
   * The token kind a foreign client announced in its ready line (`--client`), when the run had one;
   * `tokenKind` is then what the checkers may rely on ('none' has no order, as 'unique'), and a
   * message speaks of the client's tokens, not of the backend's built-in client's.
   */
  clientToken?: 'monotonic' | 'unique' | 'none';
  /** Budget for searches that can blow up (the linearizability check); default 10 s. */
  timeoutMs?: number;
  /** The clock that budget is read on, in ms (default performance.now; a simulation passes its virtual one: linearizability/result.ts). */
  now?: () => number;
}

export interface LockChecker {
  /** Kebab-case, as the file: `mutual-exclusion`. */
  readonly name: string;
  check(history: History, context: LockContext): CheckerVerdict;
  /**
   * Whether this checker's verdict is part of the run's verdict for this run
   * (default: yes). Mutual exclusion as clients saw it is reported but does
   * not decide a data workload: a lease lock is expected to be held twice
   * under a pause, and the question fencecheck answers is whether the data
   * survived that (the `mutex` workload, where the lock is the subject, is
   * decided by it). Grant tokens decide only where tokens promise an order.
   */
  decides?(context: LockContext): boolean;
}

/** The database's own concurrency control (core/vocabulary.ts DB_CONTROL_MODES; checkers import no workload code). */
const DB_CONTROL_MODES: readonly ResourceMode[] = ['version', 'for-update'];

/**
 * Where the final counter alone decides the data, and the checkers that
 * judge accesses by the lock's holds (stale writes, interleaved sections)
 * only report: no lock at all (`--backend none`: no holds), lock-counter
 * in the database's own modes, where a holder whose lock passed on may
 * still write safely (its version still current, its row lock still held),
 * and the jobs workload, whose question is each job done once (jobs.ts),
 * not whether a write came late.
 */
export function counterDecidesAlone(context: LockContext): boolean {
  const w = workloadOf(context.workload);
  // (The mutex workload runs none of the checkers that ask: it has no accesses.)
  return context.backend === 'none' || !w.lateWritesDecide || (w.counter && DB_CONTROL_MODES.includes(context.resource));
}

/** A history with thousands of overlaps needs the count and a sample, not a 10 MB report. */
export const MAX_ANOMALIES = 100;

/** A verdict with its anomaly list capped and counted. */
export function verdict(checker: string, valid: Validity, summary: string, anomalies: readonly Anomaly[], stats?: Record<string, number>): CheckerVerdict {
  return {
    checker,
    valid,
    summary,
    anomalies: anomalies.slice(0, MAX_ANOMALIES),
    anomalyCount: anomalies.length,
    ...(stats === undefined ? {} : { stats }),
  };
}

/**
 * false > unknown > true. No verdicts at all is 'unknown', not true: a run
 * that checked nothing has shown nothing.
 */
export function mergeVerdicts(verdicts: readonly { valid: Validity }[]): Validity {
  if (verdicts.length === 0) return 'unknown';
  if (verdicts.some((v) => v.valid === false)) return false;
  if (verdicts.some((v) => v.valid === 'unknown')) return 'unknown';
  return true;
}

export interface LockCheckResult {
  /** The run's verdict: the merge of the deciding checkers (docs/run-directory.md). */
  valid: Validity;
  verdicts: CheckerVerdict[];
  /** Names of the checkers whose verdicts make up `valid`. */
  deciding: string[];
}

/** Run every checker; one that throws yields 'unknown' with its error and the others still run. */
export function runCheckers(checkers: readonly LockChecker[], history: History, context: LockContext): LockCheckResult {
  const verdicts = checkers.map((c): CheckerVerdict => {
    try {
      return c.check(history, context);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { ...verdict(c.name, 'unknown', `the checker crashed: ${message}`, []), error: message };
    }
  });
  const deciding = checkers.filter((c) => c.decides?.(context) ?? true).map((c) => c.name);
  return { valid: mergeVerdicts(verdicts.filter((v) => deciding.includes(v.checker))), verdicts, deciding };
}

/** A history time (ns since the start) as a person reads it: `1203.3 ms`. */
export function ms(ns: number): string {
  return Number.isFinite(ns) ? `${(ns / 1e6).toFixed(1)} ms` : 'the end';
}
