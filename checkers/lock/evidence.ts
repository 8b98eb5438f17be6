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
 * (workloads/runner/nemesis-runner.ts); the info carries `error` when the
 * fault failed. A fault that found no victim is recorded as an info with an
 * error and no invoke before it ("no client to pause ..."): that is a skip.
 */
import type { History, Op, Value } from '../../src/history/op.js';
import { ACCESS_FS, lockOps } from './lock-ops.js';
import type { CheckerVerdict, LockWorkload, Validity } from './verdict.js';

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
  };
}

/** A run's or a cell's outcome: `untested` is valid without evidence that the danger occurred. */
export type Outcome = 'safe' | 'unsafe' | 'unknown' | 'untested';

/**
 * The nemesis ops that start a fault, as the fault kind they belong to. A
 * `pause` is a client pause when it names a pid or found no client (only
 * client faults are skipped for want of a victim), else a server pause.
 */
const FAULT_OF_START: Record<string, (value: Value, skipped: boolean) => string> = {
  // A triggered window skipped for want of its event names its fault kind (workloads/runner/nemesis-runner.ts).
  pause: (value, skipped) => (isRecord(value) && value['fault'] === 'server-pause' ? 'server-pause' : skipped || (isRecord(value) && value['pid'] !== undefined) ? 'client-pause' : 'server-pause'),
  kill: () => 'kill',
  'clock-offset': () => 'clock',
  'start-partition': () => 'partition',
  'start-loss': () => 'loss',
  'start-delay': () => 'delay',
};

/**
 * `plannedWindows` undefined (a run re-checked without its plan) counts the
 * faults the history shows attempted, a lower bound of what was planned.
 */
export function evidenceOf(history: History, verdicts: readonly CheckerVerdict[], plannedWindows?: number): Evidence {
  return {
    faults: faultsOf(history, plannedWindows),
    protection: { doubleHolds: doubleHoldsOf(verdicts), refusals: refusalsOf(history) },
  };
}

function faultsOf(history: History, planned: number | undefined): Evidence['faults'] {
  const faults: Evidence['faults'] = { planned: planned ?? 0, applied: 0, skipped: [], failed: [] };
  // Faults overlap in time, so an info is paired with an open invoke of the same f and value.
  const open = new Map<string, number>();
  for (const op of history) {
    if (op.process !== 'nemesis' || FAULT_OF_START[op.f] === undefined || isClockReset(op)) continue;
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
    const fault = FAULT_OF_START[op.f]!(op.value, !invoked);
    if (invoked) faults.failed.push({ fault, error: text });
    else faults.skipped.push({ fault, why: text });
  }
  if (planned === undefined) faults.planned = faults.applied + faults.skipped.length + faults.failed.length;
  return faults;
}

/** Definite double holds; the stats count them all, where the anomaly list is capped and holds maybes too. */
function doubleHoldsOf(verdicts: readonly CheckerVerdict[]): number {
  const v = verdicts.find((c) => c.checker === 'mutual-exclusion');
  if (v === undefined) return 0;
  const counted = v.stats?.['doubleHolds'];
  return typeof counted === 'number' ? counted : v.anomalies.filter((a) => a.kind === 'double-hold').length;
}

function refusalsOf(history: History): number {
  return lockOps(history).filter((op) => ACCESS_FS.includes(op.f) && op.outcome === 'rejected').length + replicationRefusals(history);
}

/**
 * Acquires refused because the grant could not be shown replicated: WAIT
 * found too few replicas (`not-replicated`), or the master refused the write
 * under min-replicas-to-write (`redis-error NOREPLICAS`).
 */
export function replicationRefusals(history: History): number {
  return history.filter((op) => op.f === 'acquire' && (op.type === 'fail' || op.type === 'info') && typeof op.error === 'string' && (op.error.startsWith('not-replicated') || op.error.includes('NOREPLICAS'))).length;
}

/** The clock fault ends by setting the offset back to 0: that is a heal, not a fault. */
function isClockReset(op: Op): boolean {
  return op.f === 'clock-offset' && isRecord(op.value) && op.value['ms'] === 0;
}

function isRecord(v: Value | undefined): v is { [key: string]: Value } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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

/** Why a valid run is untested, in words, or undefined when it is not (or is not valid). */
export function untestedWhy(valid: Validity, evidence: Evidence, workload: LockWorkload): string | undefined {
  if (valid !== true) return undefined;
  if (evidence.faults.applied === 0) return 'no fault applied';
  if (workload === 'mutex') return undefined;
  const p = evidence.protection;
  if (p.doubleHolds === 0 && p.refusals === 0) return 'the lock never failed: no double hold, no refusal';
  return undefined;
}
