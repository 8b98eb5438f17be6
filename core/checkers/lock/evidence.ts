/**
 * Evidence of danger before a verdict of safety (pure).
 *
 * A run whose checkers all pass shows that the data survived what happened,
 * not that anything happened. Two questions decide whether "valid" means
 * "safe": did the faults strike (a fault aimed at "the holder" when nobody
 * holds finds no victim and is skipped; a fault command can fail), and was the
 * protection put to the test (did the lock fail, so that two processes held
 * it at once, or did the resource refuse an access from a holder whose lock
 * had passed on)? Without both, the honest word is *untested*.
 *
 * The nemesis records every fault as an invoke and then an info
 * (runtime/runner/faults/); the info carries `error` when the
 * fault failed. A fault that found no victim is recorded as an info with an
 * error and no invoke before it ("no client to pause ..."): that is a skip.
 * A part of the harness that died mid-run (a delay proxy, the resource's
 * server: runtime/runner/harness-watch.ts) is a `harness-died` info: a
 * failed fault no window planned, and a valid run with one is untested.
 *
 * A third question: did the clients survive? A lock client process that died
 * without being asked (client-session.ts tells) is counted here, built-in or
 * foreign. Its verdict (`client-crashes`, core/analyse/client-verdict.ts)
 * makes such a run unknown at best, never safe: the run tested a client that
 * kept dying instead of one that rode out the faults (docs/lock-workloads.md).
 */
import type { History } from '../../history/op.js';
import { faultOfStart, isFaultStart } from '../../generator/faults/fault-of-op.js';
import { ACCESS_FS, lockOps, type LockOp } from './lock-ops.js';
import { sectionsOf } from './section-cost.js';
import type { CheckerVerdict, LockWorkload, Validity } from './verdict.js';
import { workloadOf } from '../../workloads/registry.js';

/** The nemesis op of a harness death (runtime/runner/harness-watch.ts writes it; checkers do no I/O, so the name lives here). */
export const HARNESS_DIED = 'harness-died';

export interface Evidence {
  faults: {
    /** Fault windows the run planned (seeded schedule or script). */
    planned: number;
    /** Faults that struck: their start recorded without error. */
    applied: number;
    /** Faults that found nothing to strike, with the nemesis' reason. */
    skipped: { fault: string; why: string }[];
    /** Faults whose command failed, with its error. */
    failed: { fault: string; error: string }[];
  };
  protection: {
    /** Definite double holds (the mutual-exclusion checker): the lock failed. */
    doubleHolds: number;
    /**
     * The protection saying no: resource accesses the resource refused
     * (`outcome: "rejected"`: the fence or mark), and grants the lock service
     * refused for want of replicas (WAIT, NOREPLICAS).
     */
    refusals: number;
    /**
     * Without a lock only (no acquire in the history, `--backend none`):
     * sections that began while another process's section was in flight.
     * No lock kept them apart, so the database's own control had to (a
     * version refusal, a wait for the row lock): the danger occurred.
     */
    overlaps?: number;
  };
  /** Client processes that died without being asked; missing from results.json files written before they were counted. */
  clients?: {
    crashes: number;
    /** The first crash, for the outcome line. */
    first: ClientCrash | null;
  };
}

/**
 * A lock client process that ended without being asked, after its ready line:
 * a signal other than the SIGKILL and SIGTERM the harness sends (a nemesis
 * kill, a retire, the teardown), an exit code other than 0, or an exit 0 the
 * runner did not ask for (no shutdown, stdin open).
 */
export interface ClientCrash {
  client: string;
  /** `signal SIGABRT`, `exit code 1`. */
  exit: string;
  stderrTail: string[];
}

/** A run's or a cell's outcome: `untested` is valid without evidence that the danger occurred. */
export type Outcome = 'safe' | 'unsafe' | 'unknown' | 'untested';

/**
 * `plannedWindows` undefined (a run re-checked without its plan) counts the
 * faults the history shows attempted, a lower bound of what was planned.
 */
export function evidenceOf(history: History, verdicts: readonly CheckerVerdict[], plannedWindows?: number, crashes: readonly ClientCrash[] = []): Evidence {
  const ops = lockOps(history);
  const lockless = !ops.some((o) => o.f === 'acquire') && ops.some((o) => ACCESS_FS.includes(o.f));
  return {
    faults: faultsOf(history, plannedWindows),
    protection: { doubleHolds: doubleHoldsOf(verdicts), refusals: refusalsOf(history, ops), ...(lockless ? { overlaps: locklessOverlaps(history, ops) } : {}) },
    clients: { crashes: crashes.length, first: crashes[0] ?? null },
  };
}

/**
 * Sections (section-cost.ts) that tried to write and started before an
 * earlier-started one of them ended; a pending op's section never ends.
 * Sections that never wrote (a read that failed while PostgreSQL was down)
 * put nothing at risk, so they are left out.
 */
function locklessOverlaps(history: History, ops: readonly LockOp[]): number {
  const attemptOf = (o: LockOp): number => Number(history[o.invokeIndex]?.['attempt'] ?? 1);
  const errorOf = (o: LockOp): string => (o.completeIndex === undefined ? '' : String(history[o.completeIndex]?.error ?? ''));
  const sections = sectionsOf(
    ops.filter((o) => o.f !== 'final-read'),
    true,
    false,
    attemptOf,
    errorOf,
  )
    .filter((s) => s.wrote)
    .sort((a, b) => a.start - b.start);
  let overlaps = 0;
  let lastEnd = -Infinity;
  for (const s of sections) {
    if (s.start < lastEnd) overlaps++;
    lastEnd = Math.max(lastEnd, s.end);
  }
  return overlaps;
}

/** The fault windows a history shows planned (or attempted, when `planned` is undefined), applied, skipped and failed. */
export function faultsOf(history: History, planned: number | undefined): Evidence['faults'] {
  const faults: Evidence['faults'] = { planned: planned ?? 0, applied: 0, skipped: [], failed: [] };
  // Faults overlap in time, so an info is paired with an open invoke of the same f and value.
  const open = new Map<string, number>();
  for (const op of history) {
    if (op.process === 'nemesis' && op.f === HARNESS_DIED && op.type === 'info') {
      faults.failed.push({ fault: 'harness', error: typeof op.error === 'string' ? op.error : JSON.stringify(op.error ?? 'a part of the harness died') });
      continue;
    }
    if (op.process !== 'nemesis' || !isFaultStart(op.f, op.value)) continue;
    const key = `${op.f} ${JSON.stringify(op.value)}`;
    if (op.type === 'invoke') {
      open.set(key, (open.get(key) ?? 0) + 1);
      continue;
    }
    if (op.type !== 'info') continue;
    const invoked = (open.get(key) ?? 0) > 0;
    if (invoked) open.set(key, open.get(key)! - 1);
    const error = op.error;
    if (error === undefined || error === null) {
      faults.applied++;
      continue;
    }
    const text = typeof error === 'string' ? error : JSON.stringify(error);
    const fault = faultOfStart(op.f, op.value, !invoked) ?? op.f;
    if (invoked) faults.failed.push({ fault, error: text });
    else faults.skipped.push({ fault, why: text });
  }
  if (planned === undefined) faults.planned = faults.applied + faults.skipped.length + faults.failed.filter((f) => f.fault !== 'harness').length;
  return faults;
}

/** Definite double holds; the stats count them all, where the anomaly list is capped and holds maybes too. */
function doubleHoldsOf(verdicts: readonly CheckerVerdict[]): number {
  const v = verdicts.find((c) => c.checker === 'mutual-exclusion');
  if (v === undefined) return 0;
  const counted = v.stats?.['doubleHolds'];
  return typeof counted === 'number' ? counted : v.anomalies.filter((a) => a.kind === 'double-hold').length;
}

function refusalsOf(history: History, ops: readonly LockOp[]): number {
  return ops.filter((op) => ACCESS_FS.includes(op.f) && op.outcome === 'rejected').length + replicationRefusals(history);
}

/**
 * Acquires refused because the grant could not be shown replicated: WAIT
 * found too few replicas (`not-replicated`), or the master refused the write
 * under min-replicas-to-write (`redis-error NOREPLICAS`).
 */
export function replicationRefusals(history: History): number {
  return history.filter(
    (op) =>
      op.f === 'acquire' &&
      (op.type === 'fail' || op.type === 'info') &&
      typeof op.error === 'string' &&
      (op.error.startsWith('not-replicated') || op.error.includes('NOREPLICAS')),
  ).length;
}

/**
 * A run's outcome from its verdict and its evidence. Invalid is unsafe and
 * unknown is unknown whatever the evidence. A valid run is untested when no
 * fault struck, or when the lock never failed (no double hold, no refusal):
 * then the resource's protection was never needed. On the `mutex` workload
 * the lock itself is the subject, so faults that struck suffice.
 */
export function outcomeOf(valid: Validity, evidence: Evidence, workload: LockWorkload): Outcome {
  return untestedWhy(valid, evidence, workload) === undefined ? (valid === false ? 'unsafe' : valid === 'unknown' ? 'unknown' : 'safe') : 'untested';
}

/**
 * Why a valid run is untested, in words, or undefined when it is not (or is
 * not valid). Without a lock the danger is concurrency itself, faults or
 * not: untested only when no two sections overlapped and nothing was refused.
 */
export function untestedWhy(valid: Validity, evidence: Evidence, workload: LockWorkload): string | undefined {
  if (valid !== true) return undefined;
  const died = evidence.faults.failed.find((f) => f.fault === 'harness');
  // The run did not test what it planned: its clients lost a link no fault window meant to cut.
  if (died !== undefined) return `a part of the harness died: ${died.error}`;
  const overlaps = evidence.protection.overlaps;
  if (overlaps !== undefined)
    return overlaps === 0 && evidence.protection.refusals === 0
      ? 'no lock, and no two sections overlapped: the database never had to keep writers apart'
      : undefined;
  if (evidence.faults.applied === 0) return 'no fault applied';
  // The lock is the subject: every tested grant is evidence, a double hold is the failure itself.
  if (!workloadOf(workload).accessesResource) return undefined;
  const p = evidence.protection;
  if (p.doubleHolds === 0 && p.refusals === 0) return 'the lock never failed: no double hold, no refusal';
  return undefined;
}
