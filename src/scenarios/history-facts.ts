/**
 * What a scenario run's history says besides the checkers' verdicts (pure):
 * whether the scripted faults were applied at all (a fault aimed at "the
 * holder" when nobody holds is skipped, and a run whose fault never struck
 * shows nothing about it), and the client answers a scenario is about:
 * grants whose validity had already run out, acquires refused and why, and
 * resource accesses rejected and why; grants a failover lost, and tokens
 * that went backwards.
 */
import { evidenceOf } from '../../core/checkers/lock/evidence.js';
import type { History, Op, Value } from '../../core/history/op.js';
import { replicationRefusals } from '../../core/checkers/lock/evidence.js';
import { lostGrants, tokenRegressions } from './lost-grants.js';

export interface HistoryFacts {
  faults: {
    /** Windows in the script. */
    planned: number;
    /** Windows whose fault was applied (its start recorded without error). */
    applied: number;
    /** Why the others were not (skipped for want of a victim, or failed), as the nemesis recorded it: `client-pause: no client to pause ...`. */
    skipped: string[];
  };
  /** `ok` acquires with `validity_ms` <= 0: the client was handed a lock already expired. */
  expiredGrants: number;
  /** `fail` and `info` acquires by error code (`held` is ordinary contention and left out). */
  acquireFailures: Record<string, number>;
  /** `fail` reads, writes and marks by error code (`fenced`, `mark-changed`, `lock-lost`, …). */
  refusedAccesses: Record<string, number>;
  /** Acknowledged grants another client was granted over after a server fault (lost-grants.ts). */
  lostGrants: number;
  /** Granted monotonic tokens not above one granted before (a counter that went backwards). */
  tokenRegressions: number;
  /** Acquires refused because too few replicas had the grant (WAIT, min-replicas-to-write). */
  replicationRefusals: number;
}

const ACCESSES = new Set(['read', 'write', 'mark']);

export function historyFacts(history: History, plannedWindows: number): HistoryFacts {
  // The faults as every results.json records them (checkers/lock/evidence.ts), so a scenario and a compare cell agree.
  const { faults } = evidenceOf(history, [], plannedWindows);
  const skipped = [...faults.skipped.map((s) => `${s.fault}: ${s.why}`), ...faults.failed.map((f) => `${f.fault}: ${f.error}`)];
  const facts: HistoryFacts = {
    faults: { planned: faults.planned, applied: faults.applied, skipped },
    expiredGrants: 0,
    acquireFailures: {},
    refusedAccesses: {},
    lostGrants: lostGrants(history).length,
    tokenRegressions: tokenRegressions(history),
    replicationRefusals: replicationRefusals(history),
  };
  for (const op of history) {
    if (op.process === 'nemesis') continue;
    if (op.f === 'acquire') countAcquire(facts, op);
    else if (ACCESSES.has(op.f) && op.type === 'fail') bump(facts.refusedAccesses, errorCode(op.error));
  }
  return facts;
}

function countAcquire(facts: HistoryFacts, op: Op): void {
  if (op.type === 'ok' && typeof op['validity_ms'] === 'number' && op['validity_ms'] <= 0) facts.expiredGrants++;
  if (op.type === 'fail' || op.type === 'info') {
    const code = errorCode(op.error);
    if (code !== 'held') bump(facts.acquireFailures, op.type === 'info' ? `${code} (info)` : code);
  }
}

/** The short code of an error: the answer's `error` is a code, sometimes followed by detail. */
function errorCode(e: Value | undefined): string {
  if (typeof e !== 'string' || e === '') return 'unknown';
  return e.split(/[:\s]/, 1)[0] ?? e;
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
